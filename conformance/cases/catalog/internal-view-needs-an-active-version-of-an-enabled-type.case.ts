import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'catalog/internal-view-needs-an-active-version-of-an-enabled-type',
  clause: 'catalog-internal',
  category: 'catalog',
  description: 'the internal view hides capabilities once their type is disabled or their version inactive',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ bound: [] });
    const internal = ctx.as({ roles: ['registry:internal'] });
    const count = async () =>
      expectOk(await internal.call('queryCatalog', { query: { capability_id: fleet.capability, unbound: true } })).total;
    expectEqual(await count(), 1, 'visible internally at first');
    expectOk(await ctx.admin.call('setConnectorTypeEnabled', { params: { type_id: fleet.type.id }, body: { enabled: false } }));
    expectEqual(await count(), 0, 'with the type disabled');
    expectOk(await ctx.admin.call('setConnectorTypeEnabled', { params: { type_id: fleet.type.id }, body: { enabled: true } }));
    expectOk(await ctx.admin.call('setVersionStatus', { params: { version_id: fleet.version.id }, body: { status: 'admitted' } }));
    expectEqual(await count(), 0, 'with the version admitted but not active');
  },
});
