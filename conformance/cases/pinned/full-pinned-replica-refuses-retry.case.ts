import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'pinned/full-pinned-replica-refuses-retry',
  clause: 'pinned-replica-conditions',
  category: 'pinned',
  description: 'a retry whose pinned replica is at capacity is REPLICA_UNAVAILABLE, though another replica is free',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 2 });
    const pinned = fleet.replicas[0]!.id;
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.settle(view);
    await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const spare = await ctx.fx.replica(fleet.instance.id, fleet.version.id, { capacity: 10 });
    const reply = await ctx
      .dispatch(fleet.tenant)
      .call('resolveRoute', { body: { action_id: view.assignment.action_id, capability_id: fleet.capability } });
    expectError(reply, 'REPLICA_UNAVAILABLE', { instance_id: fleet.instance.id });
    expectEqual(
      [await ctx.fx.active(pinned), await ctx.fx.active(spare.id)],
      [2, 0],
      'active assignments of the pinned and the spare replica',
    );
    expectEqual((await ctx.fx.route(fleet.tenant, view.assignment.action_id)).reserved, false, 'the refused retry holds nothing');
  },
});
