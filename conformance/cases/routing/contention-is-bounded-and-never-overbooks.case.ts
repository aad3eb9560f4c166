import { BURST_ROUNDS, withBurstLine } from '../../harness/burst.ts';
import { expectBurstRefusal, fillSequentially, heldUnits } from '../../harness/contention.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectAtMost, expectEqual, expectError, expectOk } from '../../harness/expect.ts';

const BURST = 24;

export default defineCase({
  id: 'routing/contention-is-bounded-and-never-overbooks',
  clause: 'route-contention',
  category: 'routing',
  flags: ['concurrent', 'slow'],
  description: `bursts of ${BURST} resolves for 2 units all answer, as a route or REPLICA_UNAVAILABLE, and never overbook`,
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 2, capacity: 1 });
    const dispatch = ctx.dispatch(fleet.tenant);
    const fresh = () => ({ action_id: ctx.ids.action(), capability_id: fleet.capability });
    const units = () =>
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
          expectBurstRefusal(r, { instanceId: fleet.instance.id }, `a resolve of burst ${round} that lost the race`);
        const routed = replies.filter((r) => r.status === 200).map((r) => expectOk(r, 'a resolve of the burst'));
        expectAtMost(routed.length, 2, `routes of burst ${round} for two units of capacity`);
        expectEqual(await units(), routed.length, `replica units held against the routes of burst ${round}`);
        await Promise.all(routed.map((v) => ctx.fx.settle(v, 'cancelled')));
      }
    });
    // Losing every race is allowed; one at a time, both units fill and a third resolve finds no replica.
    await fillSequentially(ctx, dispatch, 2, fresh, 'a resolve while a unit is free');
    expectError(
      await dispatch.call('resolveRoute', { body: fresh() }),
      'REPLICA_UNAVAILABLE',
      { instance_id: fleet.instance.id },
      'a resolve with both units taken',
    );
    expectEqual(await units(), 2, 'replica units with both replicas full');
  },
});
