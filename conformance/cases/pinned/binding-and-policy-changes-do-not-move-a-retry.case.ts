import { defineCase } from '../../harness/define-case.ts';
import { expectIdentical, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'pinned/binding-and-policy-changes-do-not-move-a-retry',
  clause: 'pinned-identical',
  category: 'pinned',
  description: 'disabling the binding and editing its policy leave retries of an action identical',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ policy: { max_tenant_in_flight: 10, max_tenant_retry_in_flight: 10 } });
    const first = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.settle(first, 'cancelled');
    const p = fleet.policy!;
    expectOk(
      await ctx.admin.call('putAdmissionPolicy', {
        params: { policy_ref: p.policy_ref },
        body: { ...p, revision: 2, max_tenant_in_flight: 99 },
      }),
    );
    const b = fleet.binding;
    expectOk(
      await ctx.admin.call('putBinding', {
        params: { tenant_id: b.tenant_id, capability_id: b.capability_id, instance_id: b.instance_id },
        body: { ...b, enabled: false, priority: 3, policy_revision: 9 },
      }),
    );
    const retried = await ctx.fx.resolve(fleet.tenant, fleet.capability, first.assignment.action_id);
    expectIdentical(retried.assignment, first.assignment, 'the retried assignment');
  },
});
