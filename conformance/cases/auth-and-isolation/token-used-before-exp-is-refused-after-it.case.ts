import { expectHandled } from '../../harness/clock.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectOk } from '../../harness/expect.ts';
import { EXPIRED_BY_MS } from '../../harness/tokens.ts';

/** The most skew [auth-time] allows on exp. */
const MOST_LEEWAY_MS = 30_000;

export default defineCase({
  id: 'auth-and-isolation/token-used-before-exp-is-refused-after-it',
  clause: 'auth-time',
  category: 'auth-and-isolation',
  flags: ['slow'],
  description: 'a token accepted while valid is 401 once its exp is 31 s past: no cache outlives exp',
  async run(ctx) {
    const type = await ctx.fx.type();
    const { token, expMs } = await ctx.tokens.shortLived({ roles: ['registry:reader'] }, ctx.clock, 5000);
    const read = () => ctx.api.call('getConnectorType', { params: { type_id: type.id }, as: { token } });
    const early = await read();
    expectHandled(ctx.clock, early.exchange, 'before', expMs, 'a read while the token is valid', () =>
      expectOk(early, 'a read while the token is valid'),
    );
    // A registry may remember tokens it verified, but [auth-time] holds on every use: once exp is more than
    // 30 s behind the target's clock, this token is refused like any other expired one.
    await ctx.sleep(ctx.clock.until(expMs + EXPIRED_BY_MS + ctx.clock.uncertaintyMs));
    const late = await read();
    expectHandled(ctx.clock, late.exchange, 'after', expMs + MOST_LEEWAY_MS, 'a read with the token 31 s past its exp', () =>
      expectError(late, 'UNAUTHENTICATED', undefined, 'a read with the token 31 s past its exp'),
    );
  },
});
