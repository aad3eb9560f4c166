import { unchecked } from '../../harness/client.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectIdentical } from '../../harness/expect.ts';
import { snapshotFleet } from '../../harness/snapshot.ts';

export default defineCase({
  id: 'validation/refused-requests-change-nothing',
  clause: 'error-changes-nothing',
  category: 'validation',
  description: 'refused writes, resolves and settlements leave records, replicas, routes and counters as they were',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 5, policy: { max_tenant_in_flight: 2 } });
    // Another capability the tenant may route, in a version of its own (legal under any max_capabilities_per_version).
    const other = await ctx.fx.fleet({ tenant: fleet.tenant });
    const [one, two] = [
      await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action()),
      await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action()),
    ];
    const actions = [one.assignment.action_id, two.assignment.action_id];
    const before = await snapshotFleet(ctx, fleet, actions);
    const dispatch = ctx.dispatch(fleet.tenant);
    const replica = fleet.replicas[0]!;
    const refusals = [
      [
        'FENCE_LOST',
        () =>
          dispatch.call('settleRoute', {
            params: { action_id: actions[0]! },
            body: { assignment: { ...one.assignment, fence_token: 'forged-token' }, outcome: 'completed' },
          }),
      ],
      [
        'INVALID_REQUEST',
        () =>
          dispatch.call('settleRoute', {
            params: { action_id: actions[0]! },
            body: unchecked({ assignment: one.assignment, outcome: 'succeeded' }),
          }),
      ],
      [
        'CAPACITY_EXCEEDED',
        () => dispatch.call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: fleet.capability } }),
      ],
      ['CONFLICT', () => dispatch.call('resolveRoute', { body: { action_id: actions[0]!, capability_id: other.capability } })],
      [
        'CONFLICT',
        () => ctx.admin.call('putConnectorType', { params: { type_id: fleet.type.id }, body: { ...fleet.type, owner: 'someone else' } }),
      ],
      [
        'CONFLICT',
        () =>
          ctx.admin.call('putInstance', { params: { instance_id: fleet.instance.id }, body: { ...fleet.instance, status: 'disabled' } }),
      ],
      [
        'CONFLICT',
        () =>
          ctx.admin.call('putBinding', {
            params: { tenant_id: fleet.tenant, capability_id: fleet.capability, instance_id: fleet.instance.id },
            body: { ...fleet.binding, priority: 7 },
          }),
      ],
      [
        'CONFLICT',
        () =>
          ctx.lifecycle.call('reportHealth', {
            params: { replica_id: replica.id },
            body: { health_revision: 2, status: 'ready', lease_expires_at: replica.lease_expires_at, capacity: 1 },
          }),
      ],
      [
        'CONFLICT',
        () =>
          ctx.lifecycle.call('reportHealth', {
            params: { replica_id: replica.id },
            body: { health_revision: 1, status: 'draining', lease_expires_at: replica.lease_expires_at, capacity: 5 },
          }),
      ],
      [
        'INVALID_REQUEST',
        () => ctx.admin.call('setVersionStatus', { params: { version_id: fleet.version.id }, body: unchecked({ status: 'candidate' }) }),
      ],
    ] as const;
    for (const [code, send] of refusals) expectError(await send(), code);
    expectIdentical(await snapshotFleet(ctx, fleet, actions), before, 'the fleet after ten refused requests');
  },
});
