import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectIdentical } from '../../harness/expect.ts';

export default defineCase({
  id: 'pinned/offline-pinned-replica-refuses-retry',
  clause: 'pinned-replica-conditions',
  category: 'pinned',
  description: 'a retry whose pinned replica is offline is REPLICA_UNAVAILABLE, though another replica is free',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 2, capacity: 10 });
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.settle(view);
    await ctx.fx.health(view.assignment.replica_id, { status: 'offline' });
    const reply = await ctx
      .dispatch(fleet.tenant)
      .call('resolveRoute', { body: { action_id: view.assignment.action_id, capability_id: fleet.capability } });
    expectError(reply, 'REPLICA_UNAVAILABLE', { instance_id: fleet.instance.id });
    expectIdentical(
      await ctx.fx.route(fleet.tenant, view.assignment.action_id),
      { ...view, reserved: false, last_settlement: 'completed' },
      'the route after the refusal',
    );
    const other = fleet.replicas.find((r) => r.id !== view.assignment.replica_id)!;
    expectEqual(await ctx.fx.active(other.id), 0, 'the other replica took nothing');
  },
});
