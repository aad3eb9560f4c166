import type { ErrorBody } from '../../../contract/errors.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectTrue } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/contention-is-bounded-and-never-overbooks',
  clause: 'route-contention',
  category: 'routing',
  flags: ['concurrent'],
  description: '96 parallel resolves for 2 units all answer, as a route or REPLICA_UNAVAILABLE, and fill exactly 2',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 2, capacity: 1 });
    const dispatch = ctx.dispatch(fleet.tenant);
    const replies = await Promise.all(Array.from({ length: 96 }, () => dispatch.call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: fleet.capability } })));
    const routed = replies.filter((r) => r.status === 200);
    for (const r of replies.filter((x) => x.status !== 200)) {
      expectEqual((r.json as ErrorBody).error.code, 'REPLICA_UNAVAILABLE', 'a resolve that lost the race', r.exchange);
    }
    expectEqual(routed.length, 2, 'routes created for two units of capacity');
    for (const replica of fleet.replicas) {
      const state = await ctx.fx.replicaState(replica.id);
      expectTrue(state.active_assignments <= state.capacity, `replica ${replica.id} holds ${state.active_assignments} of ${state.capacity}`);
    }
  },
});
