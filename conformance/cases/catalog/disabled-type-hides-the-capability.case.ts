import { visibleTo } from '../../harness/catalog.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'catalog/disabled-type-hides-the-capability',
  clause: 'catalog-tenant-visibility',
  category: 'catalog',
  description: 'a capability is hidden from its tenant once its connector type is disabled',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    expectEqual(await visibleTo(ctx, fleet.tenant, fleet.capability), true, 'visible before');
    expectOk(
      await ctx.admin.call('setConnectorTypeEnabled', { params: { type_id: fleet.type.id }, body: { enabled: false } }),
      'type disabled',
    );
    expectEqual(await visibleTo(ctx, fleet.tenant, fleet.capability), false, 'visible with the type disabled');
  },
});
