import type { RouteView } from '../../../contract/records.ts';
import { BURST_ROUNDS, withBurstLine } from '../../harness/burst.ts';
import { expectBurstRefusal, fillSequentially, resolveForSetup, resolveWithRetries } from '../../harness/contention.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectAtMost, expectEqual, expectError, expectOk } from '../../harness/expect.ts';

const LIMIT = 8;
const BURST = 24;

export default defineCase({
  id: 'pinned/retry-budget-admits-exactly-n-retries',
  clause: 'pinned-retry-budget',
  category: 'pinned',
  flags: ['concurrent', 'slow'],
  description: `with retry limit ${LIMIT}, bursts of ${BURST} retries admit at most ${LIMIT}; exactly ${LIMIT} fit, the rest are tenant_retry`,
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 2, capacity: 100, policy: { max_tenant_retry_in_flight: LIMIT } });
    const dispatch = ctx.dispatch(fleet.tenant);
    const views: RouteView[] = [];
    for (let i = 0; i < BURST; i++) views.push(await resolveForSetup(ctx, fleet.tenant, fleet.capability, ctx.ids.action()));
    await Promise.all(views.map((v) => ctx.fx.settle(v, 'cancelled')));
    const retryOf = (actionId: string) => ({ action_id: actionId, capability_id: fleet.capability });
    const held = async () => {
      const active = await Promise.all(fleet.replicas.map((r) => ctx.fx.active(r.id)));
      return { counter: await ctx.fx.counter('tenant_retry', fleet.tenant), units: active.reduce((a, b) => a + b, 0) };
    };
    // Every round retries all the actions again: settling the admitted retries makes them retryable once more.
    await withBurstLine(ctx.tokens, BURST, [dispatch], async (line) => {
      for (let round = 1; round <= BURST_ROUNDS; round++) {
        const replies = await line.fire((via) =>
          views.map((v) => via(dispatch).call('resolveRoute', { body: retryOf(v.assignment.action_id) })),
        );
        for (const r of replies.filter((x) => x.status !== 200))
          expectBurstRefusal(r, { scope: 'tenant_retry', instanceId: fleet.instance.id }, `a retry of burst ${round} refused`);
        const admitted = replies.filter((r) => r.status === 200).map((r) => expectOk(r, 'a retry of the burst'));
        expectAtMost(admitted.length, LIMIT, `retries of burst ${round} admitted under a retry limit of ${LIMIT}`);
        expectEqual(
          await held(),
          { counter: admitted.length, units: admitted.length },
          `retry counter and replica units after burst ${round}`,
        );
        await Promise.all(admitted.map((v) => ctx.fx.settle(v, 'cancelled')));
      }
    });
    // Contention may refuse below the budget; one at a time, exactly the budget fits and the next retry is tenant_retry.
    const waiting = views.map((v) => v.assignment.action_id);
    await fillSequentially(ctx, dispatch, LIMIT, () => retryOf(waiting.shift()!), 'a retry below the retry limit');
    expectError(
      await resolveWithRetries(ctx, dispatch, retryOf(waiting.shift()!)),
      'CAPACITY_EXCEEDED',
      { scope: 'tenant_retry' },
      'a retry at the retry limit',
    );
    expectEqual(await held(), { counter: LIMIT, units: LIMIT }, 'retry counter and replica units at the limit');
  },
});
