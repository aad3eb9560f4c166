import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'settlement/never-routed-action-is-not-found',
  clause: 'settle-unknown-action',
  category: 'settlement',
  description: 'settling an action that was never routed is 404',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const never = ctx.ids.action();
    const reply = await ctx.dispatch(fleet.tenant).call('settleRoute', {
      params: { action_id: never },
      body: { assignment: { ...view.assignment, action_id: never }, outcome: 'completed' },
    });
    expectError(reply, 'NOT_FOUND');
  },
});
