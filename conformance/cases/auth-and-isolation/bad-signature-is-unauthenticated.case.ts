import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'auth-and-isolation/bad-signature-is-unauthenticated',
  clause: 'auth-signature',
  category: 'auth-and-isolation',
  description: 'a token signed by another key, of an unknown kid, or with an edited payload is 401',
  async run(ctx) {
    const caller = { roles: ['registry:reader'] };
    const params = { instance_id: ctx.ids.instance('absent') };
    for (const kind of ['unknown-key', 'unknown-kid', 'tampered-payload'] as const) {
      const token = await ctx.tokens.forged(kind, caller);
      expectError(
        await ctx.api.call('getInstance', { params, as: { token }, refusedBeforeStorage: 'auth-before-state' }),
        'UNAUTHENTICATED',
        undefined,
        `token: ${kind}`,
      );
    }
  },
});
