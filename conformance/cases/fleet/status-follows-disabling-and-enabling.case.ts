import type { FleetStatus } from '../../../contract/records.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectOk } from '../../harness/expect.ts';
import { countsOffBy, countsUnchanged, FLEET_COUNTS, type FleetCounts } from '../../harness/fleet-counts.ts';
import { expectExactEffect } from '../../harness/observe.ts';

export default defineCase({
  id: 'fleet/status-follows-disabling-and-enabling',
  clause: 'fleet-status',
  category: 'fleet',
  flags: ['exclusive'],
  description: 'disabling a type, instance and binding moves enabled_instances alone; enabling moves it back',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const b = fleet.binding;
    let enabled = true;
    let revision = 1;
    await expectExactEffect<FleetStatus>(ctx, 'fleet status counts', {
      read: async () => expectOk(await ctx.operator.call('getFleetStatus')),
      // Each attempt turns all three the other way, so a retry has something to change.
      async act() {
        enabled = !enabled;
        revision += 1;
        const [type_id, instance_id] = [fleet.type.id, fleet.instance.id];
        expectOk(await ctx.admin.call('setConnectorTypeEnabled', { params: { type_id }, body: { enabled } }), 'type enable');
        const status = enabled ? 'enabled' : 'disabled';
        const instance = { ...fleet.instance, status, config_revision: revision } as const;
        expectOk(await ctx.admin.call('putInstance', { params: { instance_id }, body: instance }), `instance ${status}`);
        const binding = { ...b, enabled, policy_revision: b.policy_revision + revision };
        const params = { tenant_id: b.tenant_id, capability_id: b.capability_id, instance_id: b.instance_id };
        expectOk(await ctx.admin.call('putBinding', { params, body: binding }), 'binding enable');
      },
      // Every type counts, enabled or not (decision 22), and an active version stays active under a disabled type.
      check(before, after) {
        const expected = Object.fromEntries(FLEET_COUNTS.map((k) => [k, 0])) as FleetCounts;
        expected.enabled_instances = enabled ? 1 : -1;
        return countsOffBy(before, after, expected);
      },
      unchanged: countsUnchanged,
    });
  },
});
