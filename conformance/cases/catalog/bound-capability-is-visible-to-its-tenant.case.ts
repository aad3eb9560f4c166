import { visibleTo } from '../../harness/catalog.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual } from '../../harness/expect.ts';

export default defineCase({
  id: 'catalog/bound-capability-is-visible-to-its-tenant',
  clause: 'catalog-tenant-visibility',
  category: 'catalog',
  description: 'a capability with a fully valid binding chain is visible to the binding tenant',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    expectEqual(await visibleTo(ctx, fleet.tenant, fleet.capability), true, 'visible to its tenant');
  },
});
