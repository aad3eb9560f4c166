import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'auth-and-isolation/other-algorithms-are-unauthenticated',
  clause: 'auth-signature',
  category: 'auth-and-isolation',
  description: 'a token with alg HS256 keyed with the public key is 401',
  async run(ctx) {
    const token = await ctx.tokens.forged('alg-hs256', { roles: ['registry:admin', 'registry:reader'] });
    const reply = await ctx.api.call('getConnectorType', {
      params: { type_id: ctx.ids.type('absent') },
      as: { token },
      refusedBeforeStorage: 'auth-before-state',
    });
    expectError(reply, 'UNAUTHENTICATED', undefined, 'token: alg-hs256');
  },
});
