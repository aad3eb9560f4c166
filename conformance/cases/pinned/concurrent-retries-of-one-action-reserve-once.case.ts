import { BURST_ROUNDS, withBurstLine } from '../../harness/burst.ts';
import { expectBurstRefusal } from '../../harness/contention.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectIdentical, expectOk } from '../../harness/expect.ts';

const BURST = 16;

export default defineCase({
  id: 'pinned/concurrent-retries-of-one-action-reserve-once',
  clause: 'pinned-reserved',
  category: 'pinned',
  flags: ['concurrent', 'slow'],
  description: `bursts of ${BURST} retries of one released action reserve it once, on its pinned replica`,
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 3, capacity: 50, policy: { max_tenant_in_flight: 100, max_tenant_retry_in_flight: 100 } });
    const dispatch = ctx.dispatch(fleet.tenant);
    const held = async () => ({
      units: (await Promise.all(fleet.replicas.map((r) => ctx.fx.active(r.id)))).reduce((a, b) => a + b, 0),
      tenant: await ctx.fx.counter('tenant', fleet.tenant),
      retries: await ctx.fx.counter('tenant_retry', fleet.tenant),
    });
    await withBurstLine(ctx.tokens, BURST, [dispatch], async (line) => {
      for (let round = 1; round <= BURST_ROUNDS; round++) {
        const first = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
        await ctx.fx.settle(first, 'cancelled');
        const body = { action_id: first.assignment.action_id, capability_id: fleet.capability };
        const replies = await line.fire((via) => Array.from({ length: BURST }, () => via(dispatch).call('resolveRoute', { body })));
        for (const r of replies)
          if (r.status !== 200) expectBurstRefusal(r, { instanceId: fleet.instance.id }, `a retry of burst ${round}`);
        const succeeded = replies.filter((r) => r.status === 200).map((r) => expectOk(r, 'a retry'));
        for (const [i, v] of succeeded.entries())
          expectIdentical(v.assignment, first.assignment, `assignment of retry ${i + 1} of burst ${round}`);
        const view = succeeded[0] ?? (await ctx.fx.resolve(fleet.tenant, fleet.capability, first.assignment.action_id));
        expectEqual(await held(), { units: 1, tenant: 1, retries: 1 }, `replica units, tenant and retry counters after burst ${round}`);
        expectEqual(await ctx.fx.active(first.assignment.replica_id), 1, `units of the pinned replica after burst ${round}`);
        await ctx.fx.settle(view, 'cancelled');
      }
    });
  },
});
