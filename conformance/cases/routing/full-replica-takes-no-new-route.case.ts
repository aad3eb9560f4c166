import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/full-replica-takes-no-new-route',
  clause: 'route-eligibility',
  category: 'routing',
  description: 'a replica whose active_assignments reached capacity takes no new action',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 2, capacity: 2 });
    const views = [];
    for (let i = 0; i < 4; i++) views.push(await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action()));
    const reply = await ctx
      .dispatch(fleet.tenant)
      .call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: fleet.capability } });
    expectError(reply, 'REPLICA_UNAVAILABLE', { instance_id: fleet.instance.id }, 'a fifth action over two full replicas');
    for (const r of fleet.replicas) expectEqual(await ctx.fx.active(r.id), 2, `active assignments of ${r.id}`);
    await ctx.fx.settle(views[0]!);
    const freed = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    expectEqual(freed.assignment.replica_id, views[0]!.assignment.replica_id, 'the replica that freed a unit');
  },
});
