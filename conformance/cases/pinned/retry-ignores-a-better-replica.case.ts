import { defineCase } from '../../harness/define-case.ts';
import { expectIdentical } from '../../harness/expect.ts';

export default defineCase({
  id: 'pinned/retry-ignores-a-better-replica',
  clause: 'pinned-identical',
  category: 'pinned',
  description: 'a retry returns the identical assignment though an idle, larger replica has appeared',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10 });
    const first = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.settle(first, 'outcome_unknown');
    await ctx.fx.replica(fleet.instance.id, fleet.version.id, { capacity: 1000 });
    await ctx.fx.health(fleet.replicas[0]!.id, { capacity: 2 });
    const retried = await ctx.fx.resolve(fleet.tenant, fleet.capability, first.assignment.action_id);
    expectIdentical(retried.assignment, first.assignment, 'the retried assignment');
  },
});
