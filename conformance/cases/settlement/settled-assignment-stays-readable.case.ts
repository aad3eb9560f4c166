import { defineCase } from '../../harness/define-case.ts';
import { expectIdentical } from '../../harness/expect.ts';

export default defineCase({
  id: 'settlement/settled-assignment-stays-readable',
  clause: 'settle-retains',
  category: 'settlement',
  description: 'after settlement the assignment stays readable and pinned, unaltered',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 2, capacity: 10 });
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.settle(view, 'completed');
    expectIdentical(
      (await ctx.fx.route(fleet.tenant, view.assignment.action_id)).assignment,
      view.assignment,
      'the assignment read after settlement',
    );
    const retry = await ctx.fx.resolve(fleet.tenant, fleet.capability, view.assignment.action_id);
    expectIdentical(retry.assignment, view.assignment, 'the assignment of a later retry');
  },
});
