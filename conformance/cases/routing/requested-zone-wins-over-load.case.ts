import { defineCase } from '../../harness/define-case.ts';
import { expectEqual } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/requested-zone-wins-over-load',
  clause: 'route-order',
  category: 'routing',
  description: 'within the region, a replica in the requested zone is chosen before a less loaded one',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 50, topology: { region: 'eu', zone: 'eu-1' } });
    const zoned = fleet.replicas[0]!.id;
    for (let i = 0; i < 3; i++) await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const other = (
      await ctx.fx.replica(fleet.instance.id, fleet.version.id, {
        capacity: 50,
        topology: { region: 'eu', zone: 'eu-2', capacity_class: 'standard' },
      })
    ).id;
    const inZone = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action(), { region: 'eu', zone: 'eu-1' });
    expectEqual(inZone.assignment.replica_id, zoned, 'with zone eu-1 requested (eu-1 holds 3, eu-2 holds 0)');
    const regionOnly = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action(), { region: 'eu' });
    expectEqual(regionOnly.assignment.replica_id, other, 'with only the region requested, the less loaded replica');
  },
});
