import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/capacity-class-filters-replicas',
  clause: 'route-eligibility',
  category: 'routing',
  description: 'a requested capacity_class admits only replicas of that class',
  async run(ctx) {
    const topology = (capacity_class: string) => ({ topology: { region: 'r1', zone: 'z1', capacity_class } });
    const fleet = await ctx.fx.fleet({ replicas: [topology('standard'), topology('large')], capacity: 50 });
    const [standard, large] = fleet.replicas.map((r) => r.id);
    for (let i = 0; i < 3; i++) {
      const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action(), { capacity_class: 'large' });
      expectEqual(view.assignment.replica_id, large, `replica for capacity_class large (${i + 1})`);
    }
    expectEqual(await ctx.fx.active(standard!), 0, 'the standard replica took nothing');
    const reply = await ctx.dispatch(fleet.tenant).call('resolveRoute', {
      body: { action_id: ctx.ids.action(), capability_id: fleet.capability, topology: { capacity_class: 'gpu' } },
    });
    expectError(reply, 'REPLICA_UNAVAILABLE', { instance_id: fleet.instance.id }, 'a class no replica has');
  },
});
