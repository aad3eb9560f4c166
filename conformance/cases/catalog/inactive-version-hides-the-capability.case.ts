import { visibleTo } from '../../harness/catalog.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'catalog/inactive-version-hides-the-capability',
  clause: 'catalog-tenant-visibility',
  category: 'catalog',
  description: "a capability is hidden while the instance's version is admitted, and once it is revoked",
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const params = { version_id: fleet.version.id };
    expectOk(await ctx.admin.call('setVersionStatus', { params, body: { status: 'admitted' } }));
    expectEqual(await visibleTo(ctx, fleet.tenant, fleet.capability), false, 'visible with an admitted version');
    expectOk(await ctx.admin.call('setVersionStatus', { params, body: { status: 'active' } }));
    expectEqual(await visibleTo(ctx, fleet.tenant, fleet.capability), true, 'visible once active again');
    expectOk(await ctx.admin.call('setVersionStatus', { params, body: { status: 'revoked' } }));
    expectEqual(await visibleTo(ctx, fleet.tenant, fleet.capability), false, 'visible with a revoked version');
  },
});
