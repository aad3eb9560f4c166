import { unchecked } from '../../harness/client.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectIdentical } from '../../harness/expect.ts';

export default defineCase({
  id: 'settlement/unknown-outcome-is-invalid-request',
  clause: 'settle-outcomes',
  category: 'settlement',
  description: 'a settlement with any outcome outside the four is 400 and releases nothing',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const action = view.assignment.action_id;
    for (const outcome of ['succeeded', 'COMPLETED', 'failed', '', null]) {
      const reply = await ctx
        .dispatch(fleet.tenant)
        .call('settleRoute', { params: { action_id: action }, body: unchecked({ assignment: view.assignment, outcome }) });
      expectError(reply, 'INVALID_REQUEST', undefined, `outcome ${JSON.stringify(outcome)}`);
    }
    expectIdentical(await ctx.fx.route(fleet.tenant, action), view, 'the route after the refusals');
  },
});
