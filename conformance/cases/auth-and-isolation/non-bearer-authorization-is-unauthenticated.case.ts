import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'auth-and-isolation/non-bearer-authorization-is-unauthenticated',
  clause: 'auth-bearer',
  category: 'auth-and-isolation',
  description: 'another scheme, an empty Bearer or a token that is not a compact JWS is 401',
  async run(ctx) {
    const valid = await ctx.tokens.mint({ roles: ['registry:reader'] });
    const notJws = await ctx.tokens.forged('not-a-jws', { roles: ['registry:reader'] });
    const headers = [
      `Basic ${Buffer.from('admin:admin').toString('base64')}`,
      `Token ${valid}`,
      'Bearer',
      `Bearer ${notJws}`,
      `Bearer ${valid.split('.').slice(0, 2).join('.')}`,
    ];
    const params = { instance_id: ctx.ids.instance('absent') };
    for (const authorization of headers) {
      const reply = await ctx.anonymous.call('getInstance', {
        params,
        headers: { authorization },
        refusedBeforeStorage: 'auth-before-state',
      });
      expectError(reply, 'UNAUTHENTICATED', undefined, `Authorization: ${authorization.split(' ')[0]} …`);
    }
  },
});
