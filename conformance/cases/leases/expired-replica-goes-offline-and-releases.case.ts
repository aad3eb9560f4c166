import { defineCase } from '../../harness/define-case.ts';
import { MINUTE } from '../../harness/clock.ts';
import { expectAtMost, expectEqual, expectIdentical } from '../../harness/expect.ts';
import { expireUntilOffline } from '../../harness/leases.ts';

export default defineCase({
  id: 'leases/expired-replica-goes-offline-and-releases',
  clause: 'lease-expiry-effect',
  category: 'leases',
  description: 'expiry takes a replica offline, releases its routes as lease_expired, keeps its circuit',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({
      capacity: 5,
      policy: { max_tenant_in_flight: 9, max_instance_in_flight: 9, circuit_failure_threshold: 1, circuit_open_ms: 60 * MINUTE },
    });
    const replica = fleet.replicas[0]!.id;
    const held = [
      await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action()),
      await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action()),
    ];
    const tripped = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.settle(tripped, 'outcome_unknown');
    const before = await ctx.fx.health(replica, { lease_expires_at: ctx.clock.at(-5 * MINUTE) });
    await expireUntilOffline(ctx, [replica]);
    const after = await ctx.fx.replicaState(replica);
    expectEqual(
      [after.status, after.active_assignments, after.health_revision],
      ['offline', 0, before.health_revision + 1],
      'status, assignments and health revision',
    );
    expectAtMost(Date.parse(after.lease_expires_at), ctx.clock.now() + ctx.clock.uncertaintyMs, 'lease after expiry');
    expectIdentical(after.circuit, before.circuit, 'circuit after expiry');
    expectEqual(
      [await ctx.fx.counter('tenant', fleet.tenant), await ctx.fx.counter('instance', fleet.instance.id)],
      [0, 0],
      'tenant and instance counters',
    );
    for (const view of held)
      expectIdentical(
        await ctx.fx.route(fleet.tenant, view.assignment.action_id),
        { ...view, reserved: false, last_settlement: 'lease_expired' },
        'a held route',
      );
  },
});
