import { visibleTo } from '../../harness/catalog.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'catalog/disabled-binding-hides-the-capability',
  clause: 'catalog-tenant-visibility',
  category: 'catalog',
  description: 'a capability is hidden from its tenant once the binding is disabled',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const b = fleet.binding;
    expectEqual(await visibleTo(ctx, fleet.tenant, fleet.capability), true, 'visible before');
    expectOk(
      await ctx.admin.call('putBinding', {
        params: { tenant_id: b.tenant_id, capability_id: b.capability_id, instance_id: b.instance_id },
        body: { ...b, enabled: false, policy_revision: b.policy_revision + 1 },
      }),
      'binding disabled',
    );
    expectEqual(await visibleTo(ctx, fleet.tenant, fleet.capability), false, 'visible with the binding disabled');
  },
});
