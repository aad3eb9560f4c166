import { defineCase } from '../../harness/define-case.ts';
import { expectAtMost, expectEqual } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/least-loaded-replica-wins',
  clause: 'route-order',
  category: 'routing',
  description: 'among equal candidates the replica with fewer active assignments is chosen',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 100 });
    const busy = fleet.replicas[0]!.id;
    for (let i = 0; i < 4; i++) await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const idle = await Promise.all([1, 2].map(() => ctx.fx.replica(fleet.instance.id, fleet.version.id, { capacity: 100 })));
    const picks = [];
    for (let i = 0; i < 8; i++) picks.push((await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action())).assignment.replica_id);
    expectEqual(picks.includes(busy), false, 'the replica holding 4 took one of the next 8 while others held fewer');
    const counts = await Promise.all([busy, ...idle.map((r) => r.id)].map((id) => ctx.fx.active(id)));
    expectEqual(counts, [4, 4, 4], 'active assignments after balancing');
    for (let i = 0; i < 9; i++) await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const after = await Promise.all([busy, ...idle.map((r) => r.id)].map((id) => ctx.fx.active(id)));
    expectAtMost(Math.max(...after) - Math.min(...after), 1, `spread of ${after.join(', ')} after 9 more`);
  },
});
