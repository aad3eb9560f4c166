import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'settlement/concurrent-settlements-release-once',
  clause: 'settle-release-once',
  category: 'settlement',
  flags: ['concurrent'],
  description: '16 parallel settlements of one attempt release it exactly once',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10, policy: { max_tenant_in_flight: 10, max_instance_in_flight: 10, circuit_failure_threshold: 100 } });
    for (let i = 0; i < 3; i++) await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const dispatch = ctx.dispatch(fleet.tenant);
    const outcomes = ['completed', 'outcome_unknown', 'cancelled', 'lease_expired'] as const;
    const replies = await Promise.all(Array.from({ length: 16 }, (_, i) =>
      dispatch.call('settleRoute', { params: { action_id: view.assignment.action_id }, body: { assignment: view.assignment, outcome: outcomes[i % 4]! } })));
    const results = replies.map((r) => expectOk(r, 'a parallel settlement'));
    expectEqual(results.filter((r) => r.released).length, 1, 'settlements that released');
    const winner = results.find((r) => r.released)!;
    for (const r of results) expectEqual(r.last_settlement, winner.last_settlement, 'last_settlement reported by every settlement');
    const counters = [await ctx.fx.counter('tenant', fleet.tenant), await ctx.fx.counter('instance', fleet.instance.id), await ctx.fx.active(fleet.replicas[0]!.id)];
    expectEqual(counters, [3, 3, 3], 'tenant and instance counters and replica units after one release of four');
  },
});
