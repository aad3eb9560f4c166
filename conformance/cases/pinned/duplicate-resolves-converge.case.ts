import { BURST_ROUNDS, withBurstLine } from '../../harness/burst.ts';
import { expectBurstRefusal } from '../../harness/contention.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectIdentical, expectOk } from '../../harness/expect.ts';

const BURST = 16;

export default defineCase({
  id: 'pinned/duplicate-resolves-converge',
  clause: 'pinned-reserved',
  category: 'pinned',
  flags: ['concurrent', 'slow'],
  description: `bursts of ${BURST} resolves of one new action converge on one identical assignment holding one unit`,
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 4, capacity: 50, policy: { max_tenant_in_flight: 100 } });
    const dispatch = ctx.dispatch(fleet.tenant);
    const units = async () => (await Promise.all(fleet.replicas.map((r) => ctx.fx.active(r.id)))).reduce((a, b) => a + b, 0);
    await withBurstLine(ctx.tokens, BURST, [dispatch], async (line) => {
      for (let round = 1; round <= BURST_ROUNDS; round++) {
        const action = ctx.ids.action();
        const body = { action_id: action, capability_id: fleet.capability };
        const replies = await line.fire((via) => Array.from({ length: BURST }, () => via(dispatch).call('resolveRoute', { body })));
        // Contention may refuse some with REPLICA_UNAVAILABLE ([route-contention]); every success must be the one assignment.
        for (const r of replies)
          if (r.status !== 200) expectBurstRefusal(r, { instanceId: fleet.instance.id }, `a duplicate resolve of burst ${round}`);
        const succeeded = replies.filter((r) => r.status === 200).map((r) => expectOk(r, 'a duplicate resolve'));
        const first = succeeded[0] ?? (await ctx.fx.resolve(fleet.tenant, fleet.capability, action));
        for (const [i, v] of succeeded.entries())
          expectIdentical(v.assignment, first.assignment, `assignment of success ${i + 1} of burst ${round}`);
        expectIdentical(
          (await ctx.fx.route(fleet.tenant, action)).assignment,
          first.assignment,
          `the stored assignment after burst ${round}`,
        );
        expectEqual(
          [await units(), await ctx.fx.counter('tenant', fleet.tenant)],
          [1, 1],
          `replica units and tenant counter after burst ${round}`,
        );
        await ctx.fx.settle(first, 'cancelled');
      }
    });
  },
});
