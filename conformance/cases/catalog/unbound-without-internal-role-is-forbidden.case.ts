import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'catalog/unbound-without-internal-role-is-forbidden',
  clause: 'catalog-internal',
  category: 'catalog',
  description: 'unbound=true from a token without tenant and without registry:internal is 403',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ bound: [] });
    const client = ctx.as({ roles: ['registry:reader', 'registry:admin', 'registry:dispatch'] });
    expectError(await client.call('queryCatalog', { query: { unbound: true } }), 'FORBIDDEN', undefined, 'page');
    expectError(
      await client.call('getCatalogCapability', { params: { capability_id: fleet.capability }, query: { unbound: true } }),
      'FORBIDDEN',
      undefined,
      'single read',
    );
  },
});
