import { BURST_ROUNDS, withBurstLine } from '../../harness/burst.ts';
import { expectBurstRefusal, fillSequentially, resolveWithRetries } from '../../harness/contention.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectAtMost, expectEqual, expectError, expectOk } from '../../harness/expect.ts';

const LIMIT = 5;
const BURST = 24;

export default defineCase({
  id: 'admission/concurrent-resolves-never-exceed-scope-limits',
  clause: 'admission-never-overbooked',
  category: 'admission',
  flags: ['concurrent', 'slow'],
  description: `with an instance limit of ${LIMIT}, bursts of ${BURST} resolves admit at most ${LIMIT} and the counter never passes it`,
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 2, capacity: 100, policy: { max_instance_in_flight: LIMIT } });
    const dispatch = ctx.dispatch(fleet.tenant);
    const fresh = () => ({ action_id: ctx.ids.action(), capability_id: fleet.capability });
    const held = async () => {
      const active = await Promise.all(fleet.replicas.map((r) => ctx.fx.active(r.id)));
      return { counter: await ctx.fx.counter('instance', fleet.instance.id), units: active.reduce((a, b) => a + b, 0) };
    };
    await withBurstLine(ctx.tokens, BURST, [dispatch], async (line) => {
      for (let round = 1; round <= BURST_ROUNDS; round++) {
        const replies = await line.fire((via) =>
          Array.from({ length: BURST }, () => via(dispatch).call('resolveRoute', { body: fresh() })),
        );
        for (const r of replies.filter((x) => x.status !== 200))
          expectBurstRefusal(r, { scope: 'instance', instanceId: fleet.instance.id }, `a resolve of burst ${round} refused`);
        const admitted = replies.filter((r) => r.status === 200).map((r) => expectOk(r, 'a resolve of the burst'));
        expectAtMost(admitted.length, LIMIT, `resolves of burst ${round} admitted under an instance limit of ${LIMIT}`);
        expectEqual(
          await held(),
          { counter: admitted.length, units: admitted.length },
          `instance counter and replica units after burst ${round}`,
        );
        await Promise.all(admitted.map((v) => ctx.fx.settle(v, 'cancelled')));
      }
    });
    // Contention may refuse below the limit; one at a time, exactly the limit fits and the next is refused for the instance.
    await fillSequentially(ctx, dispatch, LIMIT, fresh, 'a resolve below the instance limit');
    expectError(
      await resolveWithRetries(ctx, dispatch, fresh()),
      'CAPACITY_EXCEEDED',
      { scope: 'instance' },
      'a resolve at the instance limit',
    );
    expectEqual(await held(), { counter: LIMIT, units: LIMIT }, 'instance counter and replica units at the limit');
  },
});
