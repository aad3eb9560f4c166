import { defineCase } from '../../harness/define-case.ts';
import { MINUTE } from '../../harness/clock.ts';
import { expectAtLeast, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'fleet/status-counts-this-runs-records',
  clause: 'fleet-status',
  category: 'fleet',
  description: 'fleet totals are at least what this case alone holds in each state, whatever others hold',
  async run(ctx) {
    const past = ctx.clock.at(-10 * MINUTE);
    const fleet = await ctx.fx.fleet({
      capacity: 7,
      replicas: [
        {},
        { status: 'draining' },
        { status: 'offline' },
        { status: 'ready', lease_expires_at: past },
        { status: 'offline', lease_expires_at: past },
      ],
    });
    await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const reply = await ctx.operator.call('getFleetStatus');
    const s = expectOk(reply);
    const x = reply.exchange;
    expectAtLeast(s.connector_types, 1, 'connector_types', x);
    expectAtLeast(s.active_versions, 1, 'active_versions', x);
    expectAtLeast(s.enabled_instances, 1, 'enabled_instances', x);
    expectAtLeast(s.replicas, 5, 'replicas', x);
    expectAtLeast(s.ready_replicas, 1, 'ready_replicas', x);
    expectAtLeast(s.draining_replicas, 1, 'draining_replicas', x);
    expectAtLeast(s.offline_replicas, 2, 'offline_replicas', x);
    expectAtLeast(s.expired_leases, 2, 'expired_leases, offline ones included', x);
    expectAtLeast(s.ready_capacity, 7, 'ready_capacity', x);
    expectAtLeast(s.active_assignments, 1, 'active_assignments', x);
  },
});
