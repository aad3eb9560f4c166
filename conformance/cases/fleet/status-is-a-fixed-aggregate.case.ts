import { defineCase } from '../../harness/define-case.ts';
import { expectAtLeast, expectAtMost, expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'fleet/status-is-a-fixed-aggregate',
  clause: 'fleet-status',
  category: 'fleet',
  // The counts relate to each other only within one state: alone, so no other case moves them while they are read.
  flags: ['serial'],
  description: 'fleet status holds exactly the contract counts, consistent with each other and the clock',
  async run(ctx) {
    const before = await ctx.fx.revision();
    const sent = ctx.clock.now();
    const reply = await ctx.operator.call('getFleetStatus');
    const s = expectOk(reply);
    const x = reply.exchange;
    expectEqual(
      Object.keys(s).sort(),
      [
        'active_assignments',
        'active_versions',
        'catalog_revision',
        'connector_types',
        'draining_replicas',
        'enabled_instances',
        'expired_leases',
        'observed_at',
        'offline_replicas',
        'ready_capacity',
        'ready_replicas',
        'replicas',
      ],
      'members',
      x,
    );
    expectAtMost(s.ready_replicas + s.draining_replicas + s.offline_replicas, s.replicas, 'ready + draining + offline against replicas', x);
    expectAtMost(s.expired_leases, s.replicas, 'expired leases against replicas', x);
    expectAtLeast(s.catalog_revision, before, 'catalog_revision against the revision read before', x);
    const margin = 5000 + ctx.clock.uncertaintyMs;
    expectAtLeast(Date.parse(s.observed_at), sent - margin, 'observed_at against the server clock', x);
    expectAtMost(Date.parse(s.observed_at), ctx.clock.now() + margin, 'observed_at against the server clock', x);
  },
});
