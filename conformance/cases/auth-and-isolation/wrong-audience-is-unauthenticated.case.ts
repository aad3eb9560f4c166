import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'auth-and-isolation/wrong-audience-is-unauthenticated',
  clause: 'auth-audience',
  category: 'auth-and-isolation',
  description: 'a valid signature for another audience is 401',
  async run(ctx) {
    const token = await ctx.tokens.forged('wrong-audience', { roles: ['registry:reader'] });
    const reply = await ctx.api.call('getReplica', {
      params: { replica_id: ctx.ids.replica('absent') },
      as: { token },
      refusedBeforeStorage: 'auth-before-state',
    });
    expectError(reply, 'UNAUTHENTICATED');
  },
});
