import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectIdentical } from '../../harness/expect.ts';

export default defineCase({
  id: 'settlement/other-tenants-route-is-not-found',
  clause: 'settle-unknown-action',
  category: 'settlement',
  description: "settling another tenant's route with its exact assignment is 404 and releases nothing",
  async run(ctx) {
    const owner = await ctx.fx.fleet();
    const view = await ctx.fx.resolve(owner.tenant, owner.capability, ctx.ids.action());
    const stranger = ctx.dispatch(ctx.ids.tenant('stranger'));
    const reply = await stranger.call('settleRoute', {
      params: { action_id: view.assignment.action_id },
      body: { assignment: view.assignment, outcome: 'completed' },
    });
    expectError(reply, 'NOT_FOUND');
    expectIdentical(await ctx.fx.route(owner.tenant, view.assignment.action_id), view, "the owner's route");
  },
});
