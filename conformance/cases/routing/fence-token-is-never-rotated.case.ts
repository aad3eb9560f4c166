import { defineCase } from '../../harness/define-case.ts';
import { expectEqual } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/fence-token-is-never-rotated',
  clause: 'assignment-fence-token',
  category: 'routing',
  description: 'an action keeps the fence token of its first assignment through settlements and retries',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10 });
    const first = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const action = first.assignment.action_id;
    for (const outcome of ['outcome_unknown', 'cancelled', 'completed'] as const) {
      await ctx.fx.settle(await ctx.fx.resolve(fleet.tenant, fleet.capability, action), outcome);
      const view = await ctx.fx.route(fleet.tenant, action);
      expectEqual(view.assignment.fence_token, first.assignment.fence_token, `fence token after settling ${outcome}`);
    }
  },
});
