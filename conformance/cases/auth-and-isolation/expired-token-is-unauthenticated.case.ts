import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'auth-and-isolation/expired-token-is-unauthenticated',
  clause: 'auth-time',
  category: 'auth-and-isolation',
  description: 'a token whose exp passed 31 s ago on the registry clock, past the 30 s of skew allowed, is 401',
  async run(ctx) {
    const token = await ctx.tokens.forged('expired', { roles: ['registry:reader'] }, ctx.clock);
    const reply = await ctx.api.call('getReplica', {
      params: { replica_id: ctx.ids.replica('absent') },
      as: { token },
      refusedBeforeStorage: 'auth-before-state',
    });
    expectError(reply, 'UNAUTHENTICATED');
  },
});
