import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/region-filters-only-without-cross-region',
  clause: 'route-eligibility',
  category: 'routing',
  description: 'a requested region is a preference by default and a filter when allow_cross_region is false',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ topology: { region: 'eu', zone: 'eu-1' }, capacity: 50 });
    const elsewhere = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action(), { region: 'ap' });
    expectEqual(elsewhere.assignment.topology.region, 'eu', 'a route outside the requested region when cross-region is allowed');
    const body = { action_id: ctx.ids.action(), capability_id: fleet.capability, topology: { region: 'ap', allow_cross_region: false } };
    expectError(
      await ctx.dispatch(fleet.tenant).call('resolveRoute', { body }),
      'REPLICA_UNAVAILABLE',
      { instance_id: fleet.instance.id },
      'region ap without cross-region',
    );
    const resident = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action(), { region: 'eu', allow_cross_region: false });
    expectEqual(resident.assignment.replica_id, fleet.replicas[0]!.id, 'a route inside the requested region');
  },
});
