import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'catalog/internal-view-needs-no-binding',
  clause: 'catalog-internal',
  category: 'catalog',
  description: 'an internal unbound read shows capabilities of active, qualified versions without bindings',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capabilities: [ctx.fx.capability(), ctx.fx.capability()], bound: [] });
    const internal = ctx.as({ roles: ['registry:internal'] });
    const page = expectOk(await internal.call('queryCatalog', { query: { text: ctx.ids.prefix, unbound: true } }));
    const ids = page.capabilities.map((d) => d.capability.id);
    expectEqual(ids, fleet.capabilities.map((c) => c.id).sort(), "this case's capabilities in the internal view");
    const single = expectOk(await internal.call('getCatalogCapability', { params: { capability_id: fleet.capabilities[1]!.id }, query: { unbound: true } }));
    expectEqual(single.definition.capability, fleet.capabilities[1], 'single internal read');
  },
});
