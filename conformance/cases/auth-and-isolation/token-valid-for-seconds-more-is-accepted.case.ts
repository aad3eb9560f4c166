import { expectHandled } from '../../harness/clock.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

/** How long the token stays valid on the target's clock: room for an ordinary exchange, and still near its edge. */
const VALID_FOR_MS = 5000;

export default defineCase({
  id: 'auth-and-isolation/token-valid-for-seconds-more-is-accepted',
  clause: 'auth-time',
  category: 'auth-and-isolation',
  description: 'a token whose exp is 5 s ahead and nbf 5 s behind on the registry clock is accepted',
  async run(ctx) {
    const type = await ctx.fx.type();
    const { token, expMs } = await ctx.tokens.shortLived({ roles: ['registry:reader'] }, ctx.clock, VALID_FOR_MS);
    // Only an exp in the past may be refused ([auth-time]); a leeway of 0 s still takes a token before its exp.
    // A request the target may have handled after exp (a slow answer, an uncertain clock) proves nothing.
    const reply = await ctx.api.call('getConnectorType', { params: { type_id: type.id }, as: { token } });
    const read = expectHandled(ctx.clock, reply.exchange, 'before', expMs, 'a read with a token valid a few seconds more', () =>
      expectOk(reply, 'a read with a token valid a few seconds more'),
    );
    expectEqual(read.id, type.id, 'the type read with a token valid a few seconds more');
  },
});
