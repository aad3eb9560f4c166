import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectIdentical, expectNotEqual } from '../../harness/expect.ts';

export default defineCase({
  id: 'pinned/draining-pinned-replica-takes-its-retries',
  clause: 'pinned-reacquire',
  category: 'pinned',
  description: 'a draining pinned replica takes retries of its actions while new actions go elsewhere',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 2, capacity: 10 });
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.settle(view, 'outcome_unknown');
    await ctx.fx.health(view.assignment.replica_id, { status: 'draining' });
    const retry = await ctx.fx.resolve(fleet.tenant, fleet.capability, view.assignment.action_id);
    expectIdentical(retry.assignment, view.assignment, 'the retry on the draining replica');
    expectEqual(await ctx.fx.active(view.assignment.replica_id), 1, 'active assignments of the draining replica');
    const fresh = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    expectNotEqual(fresh.assignment.replica_id, view.assignment.replica_id, 'replica of a new action');
  },
});
