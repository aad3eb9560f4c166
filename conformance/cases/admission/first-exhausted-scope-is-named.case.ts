import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'admission/first-exhausted-scope-is-named',
  clause: 'admission-all-or-nothing',
  category: 'admission',
  description: "CAPACITY_EXCEEDED names the first exhausted scope in the contract's order",
  async run(ctx) {
    const roomy = { max_tenant_in_flight: 9, max_connector_type_in_flight: 9, max_instance_in_flight: 9, max_binding_in_flight: 9 };
    const fleet = await ctx.fx.fleet({ capacity: 10, policy: roomy });
    // One held route puts every one of the four counters at 1; each policy below makes some of them full.
    await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const cases = [
      ['tenant', { max_tenant_in_flight: 1, max_connector_type_in_flight: 1, max_instance_in_flight: 1, max_binding_in_flight: 1 }],
      ['connector_type', { max_connector_type_in_flight: 1, max_instance_in_flight: 1, max_binding_in_flight: 1 }],
      ['instance', { max_instance_in_flight: 1, max_binding_in_flight: 1 }],
      ['binding', { max_binding_in_flight: 1 }],
    ] as const;
    const b = fleet.binding;
    let revision = b.policy_revision;
    for (const [scope, limits] of cases) {
      const policy = await ctx.fx.policy({ ...roomy, ...limits });
      const params = { tenant_id: b.tenant_id, capability_id: b.capability_id, instance_id: b.instance_id };
      expectOk(
        await ctx.admin.call('putBinding', { params, body: { ...b, quota_policy_ref: policy.policy_ref, policy_revision: ++revision } }),
      );
      const reply = await ctx
        .dispatch(fleet.tenant)
        .call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: fleet.capability } });
      expectError(reply, 'CAPACITY_EXCEEDED', { scope }, `with ${scope} the first full scope`);
    }
  },
});
