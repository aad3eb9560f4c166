import { defineCase } from '../../harness/define-case.ts';
import { expectEqual } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/requested-region-wins-over-load',
  clause: 'route-order',
  category: 'routing',
  description: 'a replica in the requested region is chosen before a less loaded one elsewhere',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 50, topology: { region: 'eu', zone: 'eu-1' } });
    const eu = fleet.replicas[0]!.id;
    for (let i = 0; i < 2; i++) await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const us = (
      await ctx.fx.replica(fleet.instance.id, fleet.version.id, {
        capacity: 50,
        topology: { region: 'us', zone: 'us-1', capacity_class: 'standard' },
      })
    ).id;
    const inRegion = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action(), { region: 'eu' });
    expectEqual(inRegion.assignment.replica_id, eu, 'with region eu requested (eu holds 2, us holds 0)');
    const anywhere = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    expectEqual(anywhere.assignment.replica_id, us, 'without a region, the less loaded replica');
  },
});
