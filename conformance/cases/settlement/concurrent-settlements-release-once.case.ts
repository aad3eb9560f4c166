import { BURST_ROUNDS, withBurstLine } from '../../harness/burst.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

const BURST = 16;
const OUTCOMES = ['completed', 'outcome_unknown', 'cancelled', 'lease_expired'] as const;

export default defineCase({
  id: 'settlement/concurrent-settlements-release-once',
  clause: 'settle-release-once',
  category: 'settlement',
  flags: ['concurrent', 'slow'],
  description: `bursts of ${BURST} settlements of one attempt, with every outcome, release it exactly once`,
  async run(ctx) {
    const fleet = await ctx.fx.fleet({
      capacity: 10,
      policy: { max_tenant_in_flight: 10, max_instance_in_flight: 10, circuit_failure_threshold: 10_000 },
    });
    for (let i = 0; i < 3; i++) await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const dispatch = ctx.dispatch(fleet.tenant);
    const held = async () => [
      await ctx.fx.counter('tenant', fleet.tenant),
      await ctx.fx.counter('instance', fleet.instance.id),
      await ctx.fx.active(fleet.replicas[0]!.id),
    ];
    await withBurstLine(ctx.tokens, BURST, [dispatch], async (line) => {
      for (let round = 1; round <= BURST_ROUNDS; round++) {
        const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
        const settle = { params: { action_id: view.assignment.action_id } };
        const replies = await line.fire((via) =>
          Array.from({ length: BURST }, (_, i) =>
            via(dispatch).call('settleRoute', { ...settle, body: { assignment: view.assignment, outcome: OUTCOMES[(i + round) % 4]! } }),
          ),
        );
        const results = replies.map((r) => expectOk(r, `a settlement of burst ${round}`));
        expectEqual(results.filter((r) => r.released).length, 1, `settlements of burst ${round} that released`);
        const winner = results.find((r) => r.released)!;
        for (const r of results)
          expectEqual(r.last_settlement, winner.last_settlement, `last_settlement reported by every settlement of burst ${round}`);
        expectEqual(
          await held(),
          [3, 3, 3],
          `tenant and instance counters and replica units after burst ${round} released one attempt of four`,
        );
      }
    });
  },
});
