import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/invalid-binding-chain-is-binding-unavailable',
  clause: 'route-binding-unavailable',
  category: 'routing',
  description: 'a binding that fails catalog visibility (inactive version, disabled binding) routes nothing',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const dispatch = ctx.dispatch(fleet.tenant);
    const resolve = () => dispatch.call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: fleet.capability } });
    expectOk(await ctx.admin.call('setVersionStatus', { params: { version_id: fleet.version.id }, body: { status: 'admitted' } }));
    expectError(
      await resolve(),
      'BINDING_UNAVAILABLE',
      { tenant_id: fleet.tenant, capability_id: fleet.capability },
      'version admitted, not active',
    );
    expectOk(await ctx.admin.call('setVersionStatus', { params: { version_id: fleet.version.id }, body: { status: 'active' } }));
    const b = fleet.binding;
    expectOk(
      await ctx.admin.call('putBinding', {
        params: { tenant_id: b.tenant_id, capability_id: b.capability_id, instance_id: b.instance_id },
        body: { ...b, enabled: false, policy_revision: 2 },
      }),
    );
    expectError(await resolve(), 'BINDING_UNAVAILABLE', { tenant_id: fleet.tenant, capability_id: fleet.capability }, 'binding disabled');
  },
});
