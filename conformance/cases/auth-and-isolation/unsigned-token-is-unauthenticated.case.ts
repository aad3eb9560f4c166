import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'auth-and-isolation/unsigned-token-is-unauthenticated',
  clause: 'auth-signature',
  category: 'auth-and-isolation',
  description: 'a token with alg none is 401',
  async run(ctx) {
    const token = await ctx.tokens.forged('alg-none', { roles: ['registry:admin', 'registry:reader'] });
    const reply = await ctx.api.call('getConnectorType', {
      params: { type_id: ctx.ids.type('absent') },
      as: { token },
      refusedBeforeStorage: 'auth-before-state',
    });
    expectError(reply, 'UNAUTHENTICATED', undefined, 'token: alg-none');
  },
});
