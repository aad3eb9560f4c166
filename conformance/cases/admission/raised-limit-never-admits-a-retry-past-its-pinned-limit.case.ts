import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'admission/raised-limit-never-admits-a-retry-past-its-pinned-limit',
  clause: 'admission-limits-pinned',
  category: 'admission',
  description: 'once a tenant limit is raised, a retry at its pinned limit is refused; new actions use the new one',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10, policy: { max_tenant_in_flight: 2 } });
    const dispatch = ctx.dispatch(fleet.tenant);
    const resolve = (actionId: string) => dispatch.call('resolveRoute', { body: { action_id: actionId, capability_id: fleet.capability } });
    const first = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.settle(first, 'cancelled');
    await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    expectEqual(await ctx.fx.counter('tenant', fleet.tenant), 2, 'tenant counter at the pinned limit of 2');
    const p = fleet.policy!;
    expectOk(
      await ctx.admin.call('putAdmissionPolicy', {
        params: { policy_ref: p.policy_ref },
        body: { ...p, revision: 2, max_tenant_in_flight: 5 },
      }),
      'raising the tenant limit to 5',
    );

    // The counter (2) is at the pinned limit (2) and below the current one (5): the pinned one decides.
    expectError(
      await resolve(first.assignment.action_id),
      'CAPACITY_EXCEEDED',
      { scope: 'tenant' },
      'a retry pinned to tenant limit 2 after the policy raised it to 5',
    );
    expectEqual(await ctx.fx.counter('tenant', fleet.tenant), 2, 'tenant counter after the refused retry');

    // A new action is governed by the policy as it is now, and pins it.
    const fresh = expectOk(await resolve(ctx.ids.action()), 'a new action under the raised limit');
    const pinned = fresh.assignment.admission;
    expectEqual(
      [pinned.policy_revision, pinned.base_scopes.find((s) => s.kind === 'tenant')?.limit],
      [2, 5],
      'policy revision and tenant limit pinned by the new action',
    );
    expectEqual(await ctx.fx.counter('tenant', fleet.tenant), 3, 'tenant counter after the new action');
    expectError(
      await resolve(first.assignment.action_id),
      'CAPACITY_EXCEEDED',
      { scope: 'tenant' },
      'the old retry, still past its pinned limit',
    );
  },
});
