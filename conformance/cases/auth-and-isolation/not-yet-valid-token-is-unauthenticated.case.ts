import { decodeJwt } from 'jose';
import { expectHandled, handledWindow } from '../../harness/clock.ts';
import { defineCase } from '../../harness/define-case.ts';
import type { Exchange } from '../../harness/exchange.ts';
import { expectError } from '../../harness/expect.ts';
import { ConformanceFailure } from '../../harness/failure.ts';

/** The most skew [auth-time] allows on nbf. */
const MOST_LEEWAY_MS = 30_000;
/** Tokens tried when each request may have been handled after its token came within the leeway. */
const ATTEMPTS = 3;

export default defineCase({
  id: 'auth-and-isolation/not-yet-valid-token-is-unauthenticated',
  clause: 'auth-time',
  category: 'auth-and-isolation',
  description: 'a token whose nbf is 31 s ahead on the registry clock, past the 30 s of skew allowed, is 401',
  async run(ctx) {
    // The token is refused only while its nbf is more than 30 s ahead: about a second after it is
    // minted. A request that may have been handled later proves nothing, so a fresh token is tried.
    for (let attempt = 1; ; attempt++) {
      const token = await ctx.tokens.forged('not-yet-valid', { roles: ['registry:reader'] }, ctx.clock);
      const leewayFromMs = decodeJwt(token).nbf! * 1000 - MOST_LEEWAY_MS;
      const late = (exchange: Exchange) => handledWindow(ctx.clock, exchange).latest >= leewayFromMs;
      const reply = await ctx.api
        .call('getReplica', {
          params: { replica_id: ctx.ids.replica('absent') },
          as: { token },
          refusedBeforeStorage: 'auth-before-state',
        })
        // Reading storage breaks [auth-before-state] only while the token was still to be refused.
        .catch((err: unknown) => {
          if (ConformanceFailure.is(err) && err.clause === 'auth-before-state' && err.exchange && late(err.exchange)) return err.exchange;
          throw err;
        });
      if ('exchange' in reply && (reply.status === 401 || !late(reply.exchange))) {
        expectError(reply, 'UNAUTHENTICATED');
        return;
      }
      if (attempt < ATTEMPTS) continue;
      const exchange = 'exchange' in reply ? reply.exchange : reply;
      expectHandled(ctx.clock, exchange, 'before', leewayFromMs, 'a read with a token whose nbf is 31 s ahead', () => {
        throw new ConformanceFailure(`expected 401 UNAUTHENTICATED, got ${exchange.response?.status ?? 'no answer'}`, { exchange });
      });
    }
  },
});
