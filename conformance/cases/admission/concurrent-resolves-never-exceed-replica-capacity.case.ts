import { expectBurstRefusal, fillSequentially, heldUnits } from '../../harness/contention.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectAtMost, expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'admission/concurrent-resolves-never-exceed-replica-capacity',
  clause: 'admission-never-overbooked',
  category: 'admission',
  flags: ['concurrent'],
  description: '40 parallel resolves over 3 replicas of capacity 2 never overbook one; exactly 6 routes fit in all',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 3, capacity: 2 });
    const dispatch = ctx.dispatch(fleet.tenant);
    const fresh = () => ({ action_id: ctx.ids.action(), capability_id: fleet.capability });
    const units = () => heldUnits(ctx, fleet.replicas.map((r) => r.id));
    const replies = await Promise.all(Array.from({ length: 40 }, () => dispatch.call('resolveRoute', { body: fresh() })));
    for (const r of replies.filter((x) => x.status !== 200)) expectBurstRefusal(r, { instanceId: fleet.instance.id }, 'a parallel resolve refused');
    const routed = replies.filter((r) => r.status === 200).length;
    expectAtMost(routed, 6, 'routes created over 6 units of capacity');
    expectEqual(await units(), routed, 'replica units held against routes created');
    // Contention may refuse while capacity is left; one at a time, exactly 6 fit and the seventh finds no replica.
    await fillSequentially(ctx, dispatch, 6 - routed, fresh, 'a resolve while capacity is left');
    expectError(await dispatch.call('resolveRoute', { body: fresh() }), 'REPLICA_UNAVAILABLE', { instance_id: fleet.instance.id }, 'a resolve with every replica full');
    expectEqual(await units(), 6, 'replica units with every replica full');
  },
});
