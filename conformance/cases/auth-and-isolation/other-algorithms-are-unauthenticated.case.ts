import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'auth-and-isolation/other-algorithms-are-unauthenticated',
  clause: 'auth-signature',
  category: 'auth-and-isolation',
  description: 'tokens with alg none or HS256 (keyed with the public key) are 401',
  async run(ctx) {
    const caller = { roles: ['registry:admin', 'registry:reader'] };
    const params = { type_id: ctx.ids.type('absent') };
    for (const kind of ['alg-none', 'alg-hs256'] as const) {
      const token = await ctx.tokens.forged(kind, caller);
      expectError(await ctx.api.call('getConnectorType', { params, as: { token }, refusedBeforeStorage: 'auth-before-state' }), 'UNAUTHENTICATED', undefined, `token: ${kind}`);
    }
  },
});
