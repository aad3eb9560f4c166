import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/draining-replica-takes-no-new-route',
  clause: 'route-replica-unavailable',
  category: 'routing',
  description: 'a replica that starts draining takes no new action, even while it holds others',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10 });
    const replica = fleet.replicas[0]!.id;
    await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.health(replica, { status: 'draining' });
    const reply = await ctx
      .dispatch(fleet.tenant)
      .call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: fleet.capability } });
    expectError(reply, 'REPLICA_UNAVAILABLE', { instance_id: fleet.instance.id });
    expectEqual(await ctx.fx.active(replica), 1, 'active assignments of the draining replica');
  },
});
