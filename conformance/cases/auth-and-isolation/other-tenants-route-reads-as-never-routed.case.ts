import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectIdentical } from '../../harness/expect.ts';

export default defineCase({
  id: 'auth-and-isolation/other-tenants-route-reads-as-never-routed',
  clause: 'auth-route-isolation',
  category: 'auth-and-isolation',
  description: "reading or settling another tenant's route answers exactly as for an action never routed",
  async run(ctx) {
    const owner = await ctx.fx.fleet();
    const view = await ctx.fx.resolve(owner.tenant, owner.capability, ctx.ids.action());
    const action = view.assignment.action_id;
    const stranger = ctx.dispatch(ctx.ids.tenant('stranger'));

    const foreign = expectError(
      await stranger.call('getRoute', { params: { action_id: action } }),
      'NOT_FOUND',
      undefined,
      "another tenant's route",
    );
    const never = expectError(
      await stranger.call('getRoute', { params: { action_id: ctx.ids.action() } }),
      'NOT_FOUND',
      undefined,
      'a never-routed action',
    );
    expectEqual(Object.keys(foreign).sort(), Object.keys(never).sort(), 'the two refusals carry the same members');
    expectEqual(foreign.details === undefined, never.details === undefined, 'details present in one refusal only');

    const settle = { assignment: view.assignment, outcome: 'completed' as const };
    expectError(
      await stranger.call('settleRoute', { params: { action_id: action }, body: settle }),
      'NOT_FOUND',
      undefined,
      "settling another tenant's route",
    );
    expectIdentical(await ctx.fx.route(owner.tenant, action), view, "the owner's route afterwards");
  },
});
