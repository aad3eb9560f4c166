import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'catalog/invisible-capability-read-is-not-found',
  clause: 'catalog-get',
  category: 'catalog',
  description: 'a single read of a capability the tenant cannot see, or that does not exist, is 404',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const read = (tenant: string, capability_id: string) =>
      ctx.catalogFor(tenant).call('getCatalogCapability', { params: { capability_id } });
    expectError(await read(ctx.ids.tenant('stranger'), fleet.capability), 'NOT_FOUND', undefined, 'another tenant');
    expectError(await read(fleet.tenant, ctx.ids.capability('absent')), 'NOT_FOUND', undefined, 'a capability that does not exist');
    const b = fleet.binding;
    expectOk(
      await ctx.admin.call('putBinding', {
        params: { tenant_id: b.tenant_id, capability_id: b.capability_id, instance_id: b.instance_id },
        body: { ...b, enabled: false, policy_revision: 2 },
      }),
    );
    expectError(await read(fleet.tenant, fleet.capability), 'NOT_FOUND', undefined, 'its own capability behind a disabled binding');
  },
});
