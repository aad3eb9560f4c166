import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectIdentical, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'settlement/altered-fence-token-is-fence-lost',
  clause: 'settle-fence',
  category: 'settlement',
  description: 'a settlement presenting a different fence token is FENCE_LOST and releases nothing',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 5 });
    const action = ctx.ids.action();
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, action);
    const replica = view.assignment.replica_id;
    const before = await ctx.fx.replicaState(replica);

    // Same length, last character changed: a registry minting tokens at the 256-character bound of the schema
    // would refuse one character more as INVALID_REQUEST, which [error-precedence] allows.
    const token = view.assignment.fence_token;
    const forged = { ...view.assignment, fence_token: `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}` };
    const reply = await ctx.dispatch(fleet.tenant).call('settleRoute', {
      params: { action_id: action },
      body: { assignment: forged, outcome: 'completed' },
    });
    expectError(reply, 'FENCE_LOST');

    const route = expectOk(await ctx.dispatch(fleet.tenant).call('getRoute', { params: { action_id: action } }));
    expectIdentical(route, { ...view, reserved: true, last_settlement: null }, 'the route after a refused settlement');
    expectIdentical(await ctx.fx.replicaState(replica), before, 'the replica after a refused settlement');
  },
});
