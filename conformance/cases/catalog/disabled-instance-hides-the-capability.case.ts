import { visibleTo } from '../../harness/catalog.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'catalog/disabled-instance-hides-the-capability',
  clause: 'catalog-tenant-visibility',
  category: 'catalog',
  description: 'a capability is hidden from its tenant once its instance is disabled',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    expectEqual(await visibleTo(ctx, fleet.tenant, fleet.capability), true, 'visible before');
    expectOk(
      await ctx.admin.call('putInstance', {
        params: { instance_id: fleet.instance.id },
        body: { ...fleet.instance, status: 'disabled', config_revision: 2 },
      }),
      'instance disabled',
    );
    expectEqual(await visibleTo(ctx, fleet.tenant, fleet.capability), false, 'visible with the instance disabled');
  },
});
