import { visibleTo } from '../../harness/catalog.ts';
import { defineCase } from '../../harness/define-case.ts';
import { spreadCatalog } from '../../harness/sizes.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'catalog/other-tenants-see-nothing',
  clause: 'catalog-tenant-visibility',
  category: 'catalog',
  description: "a tenant without bindings sees none of another tenant's capabilities",
  async run(ctx) {
    const { fleets } = await spreadCatalog(ctx, [ctx.fx.capability(), ctx.fx.capability()]);
    const fleet = fleets[0]!;
    const stranger = ctx.ids.tenant('stranger');
    expectEqual(await visibleTo(ctx, stranger, fleet.capability), false, "another tenant's capability");
    const page = expectOk(await ctx.catalogFor(stranger).call('queryCatalog', { query: { text: ctx.ids.prefix } }));
    expectEqual([page.total, page.capabilities.length], [0, 0], "matches of this case's capabilities for a stranger");
  },
});
