import { defineCase } from '../../harness/define-case.ts';
import { expectIdentical } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/retry-keeps-the-last-settlement',
  clause: 'assignment-read',
  category: 'routing',
  description: 'a retried route reads reserved with the outcome that released its previous attempt',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10 });
    const first = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const action = first.assignment.action_id;
    await ctx.fx.settle(first, 'cancelled');
    const retry = await ctx.fx.resolve(fleet.tenant, fleet.capability, action);
    expectIdentical(retry, { assignment: first.assignment, reserved: true, last_settlement: 'cancelled' }, 'the retry');
    expectIdentical(await ctx.fx.route(fleet.tenant, action), retry, 'a read during the retry');
    await ctx.fx.settle(retry, 'completed');
    expectIdentical(
      await ctx.fx.route(fleet.tenant, action),
      { assignment: first.assignment, reserved: false, last_settlement: 'completed' },
      'after the retry settled',
    );
  },
});
