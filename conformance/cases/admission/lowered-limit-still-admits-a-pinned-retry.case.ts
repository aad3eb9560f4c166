import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectIdentical, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'admission/lowered-limit-still-admits-a-pinned-retry',
  clause: 'admission-limits-pinned',
  category: 'admission',
  description: 'after a tenant limit is lowered below the counter, a retry under its pinned limit is admitted',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10, policy: { max_tenant_in_flight: 3 } });
    const dispatch = ctx.dispatch(fleet.tenant);
    const first = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.settle(first, 'cancelled');
    expectEqual(await ctx.fx.counter('tenant', fleet.tenant), 1, 'tenant counter with one route held');
    const p = fleet.policy!;
    expectOk(
      await ctx.admin.call('putAdmissionPolicy', {
        params: { policy_ref: p.policy_ref },
        body: { ...p, revision: 2, max_tenant_in_flight: 1 },
      }),
      'lowering the tenant limit to 1',
    );

    // The counter (1) is below the pinned limit (3) and at the current one (1): the pinned one decides.
    const retry = await dispatch.call('resolveRoute', { body: { action_id: first.assignment.action_id, capability_id: fleet.capability } });
    expectIdentical(
      expectOk(retry, 'a retry pinned to tenant limit 3 after the policy lowered it to 1').assignment,
      first.assignment,
      'the retried assignment',
    );
    expectEqual(await ctx.fx.counter('tenant', fleet.tenant), 2, 'tenant counter after the retry');

    // A new action is governed by the policy as it is now: limit 1, counter 2.
    const fresh = await dispatch.call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: fleet.capability } });
    expectError(fresh, 'CAPACITY_EXCEEDED', { scope: 'tenant' }, 'a new action under the lowered limit');
    expectEqual(await ctx.fx.counter('tenant', fleet.tenant), 2, 'tenant counter after the refused new action');
  },
});
