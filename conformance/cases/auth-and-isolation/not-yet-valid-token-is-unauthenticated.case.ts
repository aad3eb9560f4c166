import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'auth-and-isolation/not-yet-valid-token-is-unauthenticated',
  clause: 'auth-time',
  category: 'auth-and-isolation',
  description: 'a token whose nbf is 31 s ahead on the registry clock, past the 30 s of skew allowed, is 401',
  async run(ctx) {
    const token = await ctx.tokens.forged('not-yet-valid', { roles: ['registry:reader'] }, ctx.clock);
    const reply = await ctx.api.call('getReplica', {
      params: { replica_id: ctx.ids.replica('absent') },
      as: { token },
      refusedBeforeStorage: 'auth-before-state',
    });
    expectError(reply, 'UNAUTHENTICATED');
  },
});
