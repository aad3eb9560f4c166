import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/binding-policy-governs-new-routes',
  clause: 'route-admission-policy',
  category: 'routing',
  description: "a new route takes the chosen binding's policy, or the implicit default when it names none",
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ policy: { max_tenant_in_flight: 17, circuit_failure_threshold: 9, circuit_open_ms: 4321 } });
    const pinned = (await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action())).assignment;
    expectEqual(
      [pinned.quota_policy_ref, pinned.admission.policy_ref],
      [fleet.policy!.policy_ref, fleet.policy!.policy_ref],
      'policy refs',
    );
    expectEqual(
      [pinned.admission.circuit_failure_threshold, pinned.admission.circuit_open_ms],
      [9, 4321],
      'circuit settings of the policy',
    );
    const b = fleet.binding;
    expectOk(
      await ctx.admin.call('putBinding', {
        params: { tenant_id: b.tenant_id, capability_id: b.capability_id, instance_id: b.instance_id },
        body: { ...b, quota_policy_ref: null, policy_revision: 2 },
      }),
    );
    const implicit = (await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action())).assignment;
    expectEqual(
      [implicit.quota_policy_ref, implicit.admission.policy_ref, implicit.admission.policy_revision],
      [null, null, 1],
      'implicit default policy',
    );
  },
});
