import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'auth-and-isolation/token-without-exp-is-unauthenticated',
  clause: 'auth-time',
  category: 'auth-and-isolation',
  description: 'a correctly signed token without an exp claim is 401',
  async run(ctx) {
    const token = await ctx.tokens.forged('without-exp', { roles: ['registry:reader'] });
    const reply = await ctx.api.call('getReplica', {
      params: { replica_id: ctx.ids.replica('absent') },
      as: { token },
      refusedBeforeStorage: 'auth-before-state',
    });
    expectError(reply, 'UNAUTHENTICATED');
  },
});
