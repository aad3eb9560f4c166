import type { FleetStatus } from '../../../contract/records.ts';
import { defineCase } from '../../harness/define-case.ts';
import { MINUTE } from '../../harness/clock.ts';
import { expectOk } from '../../harness/expect.ts';
import { expectExactEffect } from '../../harness/observe.ts';
import { countsOffBy, countsUnchanged, type FleetCounts } from '../../harness/fleet-counts.ts';

// Expired ready and draining replicas count in none of ready, draining or offline; expired offline ones count as offline.
const EXPECTED: FleetCounts = {
  connector_types: 1,
  active_versions: 1,
  enabled_instances: 1,
  replicas: 6,
  ready_replicas: 1,
  draining_replicas: 1,
  offline_replicas: 2,
  expired_leases: 3,
  ready_capacity: 7,
  active_assignments: 1,
};

export default defineCase({
  id: 'fleet/status-counts-each-state-exactly',
  clause: 'fleet-status',
  category: 'fleet',
  flags: ['exclusive'],
  description: 'each count of fleet status moves by exactly what a known set of changes adds',
  async run(ctx) {
    await expectExactEffect<FleetStatus>(ctx, 'fleet status counts', {
      read: async () => expectOk(await ctx.operator.call('getFleetStatus')),
      async act() {
        const past = ctx.clock.at(-10 * MINUTE);
        const fleet = await ctx.fx.fleet({
          capacity: 7,
          replicas: [
            {},
            { status: 'draining' },
            { status: 'offline' },
            { status: 'ready', lease_expires_at: past },
            { status: 'draining', lease_expires_at: past },
            { status: 'offline', lease_expires_at: past },
          ],
        });
        await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
      },
      check(before, after) {
        if (after.catalog_revision <= before.catalog_revision) return 'catalog_revision did not advance with the catalog writes';
        return countsOffBy(before, after, EXPECTED);
      },
      unchanged: countsUnchanged,
    });
  },
});
