import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/disabled-policy-is-admission-rejected',
  clause: 'route-admission-policy',
  category: 'routing',
  description: 'a new action whose binding names a disabled admission policy is 422 and reserves nothing',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ policy: { max_tenant_in_flight: 10 } });
    const policy = fleet.policy!;
    expectOk(
      await ctx.admin.call('putAdmissionPolicy', {
        params: { policy_ref: policy.policy_ref },
        body: { ...policy, revision: 2, enabled: false },
      }),
    );
    const reply = await ctx
      .dispatch(fleet.tenant)
      .call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: fleet.capability } });
    expectError(reply, 'ADMISSION_REJECTED');
    expectEqual(await ctx.fx.counter('tenant', fleet.tenant), 0, 'tenant counter');
    expectEqual(await ctx.fx.active(fleet.replicas[0]!.id), 0, 'active assignments');
  },
});
