import { defineCase } from '../../harness/define-case.ts';
import { expectIdentical } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/topology-preference-never-moves-a-route',
  clause: 'route-topology-new-only',
  category: 'routing',
  description: 'resolving an existing action with another topology preference returns the same assignment',
  async run(ctx) {
    const topo = (region: string) => ({ topology: { region, zone: `${region}-1`, capacity_class: 'standard' } });
    const fleet = await ctx.fx.fleet({ replicas: [topo('eu'), topo('us')], capacity: 10 });
    const first = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action(), { region: 'eu' });
    const held = await ctx.fx.resolve(fleet.tenant, fleet.capability, first.assignment.action_id, {
      region: 'us',
      allow_cross_region: false,
    });
    expectIdentical(held.assignment, first.assignment, 'while held, with region us required');
    await ctx.fx.settle(first);
    const retried = await ctx.fx.resolve(fleet.tenant, fleet.capability, first.assignment.action_id, {
      region: 'us',
      zone: 'us-1',
      capacity_class: 'standard',
    });
    expectIdentical(retried.assignment, first.assignment, 'after settlement, with region and zone us preferred');
  },
});
