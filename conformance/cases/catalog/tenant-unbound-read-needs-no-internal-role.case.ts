import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectOk } from '../../harness/expect.ts';
import { spreadCatalog } from '../../harness/sizes.ts';

export default defineCase({
  id: 'catalog/tenant-unbound-read-needs-no-internal-role',
  clause: 'catalog-internal',
  category: 'catalog',
  description: 'unbound=true from a tenant token without registry:internal is a tenant read, not 403',
  async run(ctx) {
    const [bound, unbound] = [ctx.fx.capability(), ctx.fx.capability()];
    const { tenant } = await spreadCatalog(ctx, [bound]);
    // Admitted and active, but bound for no tenant: only an internal read would show it.
    await ctx.fx.fleet({ capabilities: [unbound], bound: [] });
    const catalog = ctx.catalogFor(tenant);
    const page = expectOk(
      await catalog.call('queryCatalog', { query: { text: ctx.ids.prefix, unbound: true } }),
      'a tenant read asking unbound=true',
    );
    expectEqual(
      page.capabilities.map((d) => d.capability.id),
      [bound.id],
      'the page shows the tenant view',
    );
    expectError(
      await catalog.call('getCatalogCapability', { params: { capability_id: unbound.id }, query: { unbound: true } }),
      'NOT_FOUND',
      undefined,
      'an unbound capability',
    );
  },
});
