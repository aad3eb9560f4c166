import { defineCase } from '../../harness/define-case.ts';
import { walkCatalog } from '../../harness/observe.ts';
import { spreadCatalog } from '../../harness/sizes.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'catalog/internal-view-needs-no-binding',
  clause: 'catalog-internal',
  category: 'catalog',
  // Walks the catalog, which other cases' writes would keep making stale.
  flags: ['serial'],
  description: 'an internal unbound read shows capabilities of active, qualified versions without bindings',
  async run(ctx) {
    const capabilities = [ctx.fx.capability(), ctx.fx.capability()];
    await spreadCatalog(ctx, capabilities, { unbound: true });
    const internal = ctx.as({ roles: ['registry:internal'] });
    // A walk, not one page: the target's page size may be smaller than this case's catalog.
    const { pages } = await walkCatalog(internal, { text: ctx.ids.prefix, unbound: true });
    const ids = pages.flatMap((p) => p.capabilities.map((d) => d.capability.id));
    expectEqual(ids, capabilities.map((c) => c.id).sort(), "this case's capabilities in the internal view");
    const single = expectOk(
      await internal.call('getCatalogCapability', { params: { capability_id: capabilities[1]!.id }, query: { unbound: true } }),
    );
    expectEqual(single.definition.capability, capabilities[1], 'single internal read');
  },
});
