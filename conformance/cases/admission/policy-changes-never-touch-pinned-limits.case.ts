import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectIdentical, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'admission/policy-changes-never-touch-pinned-limits',
  clause: 'admission-limits-pinned',
  category: 'admission',
  description: 'after the policy is edited and disabled, retries keep their pinned limits; only new actions see it',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10, policy: { max_tenant_in_flight: 2, max_tenant_retry_in_flight: 5 } });
    const first = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.settle(first, 'outcome_unknown');
    const p = fleet.policy!;
    expectOk(
      await ctx.admin.call('putAdmissionPolicy', {
        params: { policy_ref: p.policy_ref },
        body: { ...p, revision: 2, enabled: false, max_tenant_in_flight: 50 },
      }),
    );
    const retry = await ctx.fx.resolve(fleet.tenant, fleet.capability, first.assignment.action_id);
    expectIdentical(retry.assignment.admission, first.assignment.admission, 'admission of the retry');
    const reply = await ctx
      .dispatch(fleet.tenant)
      .call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: fleet.capability } });
    expectError(reply, 'ADMISSION_REJECTED', undefined, 'a new action under the disabled policy');
  },
});
