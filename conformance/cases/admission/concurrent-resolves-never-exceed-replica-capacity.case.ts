import { defineCase } from '../../harness/define-case.ts';
import { expectAtMost, expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'admission/concurrent-resolves-never-exceed-replica-capacity',
  clause: 'admission-never-overbooked',
  category: 'admission',
  flags: ['concurrent'],
  description: '40 parallel resolves over 3 replicas of capacity 2 create exactly 6 routes; none is overbooked',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 3, capacity: 2 });
    const dispatch = ctx.dispatch(fleet.tenant);
    const replies = await Promise.all(Array.from({ length: 40 }, () => dispatch.call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: fleet.capability } })));
    for (const r of replies.filter((x) => x.status !== 200)) expectError(r, 'REPLICA_UNAVAILABLE', undefined, 'a resolve beyond capacity');
    const routed = replies.filter((r) => r.status === 200).length;
    const states = await Promise.all(fleet.replicas.map((r) => ctx.fx.replicaState(r.id)));
    for (const s of states) expectAtMost(s.active_assignments, s.capacity, `active assignments of ${s.id}`);
    expectAtMost(routed, 6, 'routes created over 6 units of capacity');
    expectEqual(states.reduce((n, s) => n + s.active_assignments, 0), routed, 'replica units held against routes created');
    expectEqual(routed, 6, 'routes created when 40 competed for 6 units');
  },
});
