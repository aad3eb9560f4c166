import { defineCase } from '../../harness/define-case.ts';
import { expectIdentical } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/route-read-returns-the-stored-assignment',
  clause: 'assignment-read',
  category: 'routing',
  description: 'a route read returns the assignment unchanged, its reservation state and last outcome',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const action = view.assignment.action_id;
    expectIdentical(
      await ctx.fx.route(fleet.tenant, action),
      { assignment: view.assignment, reserved: true, last_settlement: null },
      'while held',
    );
    await ctx.fx.settle(view, 'outcome_unknown');
    expectIdentical(
      await ctx.fx.route(fleet.tenant, action),
      { assignment: view.assignment, reserved: false, last_settlement: 'outcome_unknown' },
      'after settlement',
    );
  },
});
