import { BURST_ROUNDS, withBurstLine } from '../../harness/burst.ts';
import { expectBurstRefusal, fillSequentially, heldUnits } from '../../harness/contention.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectAtMost, expectEqual, expectError, expectOk } from '../../harness/expect.ts';

const REPLICAS = 3;
const CAPACITY = 2;
const BURST = 24;

export default defineCase({
  id: 'admission/concurrent-resolves-never-exceed-replica-capacity',
  clause: 'admission-never-overbooked',
  category: 'admission',
  flags: ['concurrent', 'slow'],
  description: `bursts of ${BURST} resolves over ${REPLICAS} replicas of capacity ${CAPACITY} never overbook one; exactly ${REPLICAS * CAPACITY} routes fit in all`,
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: REPLICAS, capacity: CAPACITY });
    const units = REPLICAS * CAPACITY;
    const dispatch = ctx.dispatch(fleet.tenant);
    const fresh = () => ({ action_id: ctx.ids.action(), capability_id: fleet.capability });
    const held = () =>
      heldUnits(
        ctx,
        fleet.replicas.map((r) => r.id),
      );
    await withBurstLine(ctx.tokens, BURST, [dispatch], async (line) => {
      for (let round = 1; round <= BURST_ROUNDS; round++) {
        const replies = await line.fire((via) =>
          Array.from({ length: BURST }, () => via(dispatch).call('resolveRoute', { body: fresh() })),
        );
        for (const r of replies.filter((x) => x.status !== 200))
          expectBurstRefusal(r, { instanceId: fleet.instance.id }, `a resolve of burst ${round} refused`);
        const routed = replies.filter((r) => r.status === 200).map((r) => expectOk(r, 'a resolve of the burst'));
        expectAtMost(routed.length, units, `routes of burst ${round} over ${units} units of capacity`);
        expectEqual(await held(), routed.length, `replica units held against the routes of burst ${round}`);
        await Promise.all(routed.map((v) => ctx.fx.settle(v, 'cancelled')));
      }
    });
    // Contention may refuse while capacity is left; one at a time, every unit fills and the next resolve finds no replica.
    await fillSequentially(ctx, dispatch, units, fresh, 'a resolve while capacity is left');
    expectError(
      await dispatch.call('resolveRoute', { body: fresh() }),
      'REPLICA_UNAVAILABLE',
      { instance_id: fleet.instance.id },
      'a resolve with every replica full',
    );
    expectEqual(await held(), units, 'replica units with every replica full');
  },
});
