import { expectBurstRefusal, fillSequentially, resolveForSetup, resolveWithRetries } from '../../harness/contention.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectAtMost, expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'pinned/retry-budget-admits-exactly-n-retries',
  clause: 'pinned-retry-budget',
  category: 'pinned',
  flags: ['concurrent'],
  description: 'with retry limit 8, 64 parallel retries admit at most 8; exactly 8 fit, the rest are tenant_retry',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 2, capacity: 100, policy: { max_tenant_retry_in_flight: 8 } });
    const dispatch = ctx.dispatch(fleet.tenant);
    const views = [];
    for (let i = 0; i < 64; i++) views.push(await resolveForSetup(ctx, fleet.tenant, fleet.capability, ctx.ids.action()));
    await Promise.all(views.map((v) => ctx.fx.settle(v, 'cancelled')));
    const retryOf = (actionId: string) => ({ action_id: actionId, capability_id: fleet.capability });
    const held = async () => {
      const active = await Promise.all(fleet.replicas.map((r) => ctx.fx.active(r.id)));
      return { counter: await ctx.fx.counter('tenant_retry', fleet.tenant), units: active.reduce((a, b) => a + b, 0) };
    };
    const replies = await Promise.all(views.map((v) => dispatch.call('resolveRoute', { body: retryOf(v.assignment.action_id) })));
    const refused = views.filter((_, i) => replies[i]!.status !== 200).map((v) => v.assignment.action_id);
    for (const r of replies.filter((x) => x.status !== 200)) expectBurstRefusal(r, { scope: 'tenant_retry', instanceId: fleet.instance.id }, 'a parallel retry refused');
    const admitted = replies.length - refused.length;
    expectAtMost(admitted, 8, 'parallel retries admitted under a retry limit of 8');
    expectEqual(await held(), { counter: admitted, units: admitted }, `retry counter and replica units after ${admitted} parallel retries`);
    // Contention may refuse below the budget; one at a time, exactly 8 retries fit and the ninth is tenant_retry.
    const waiting = [...refused];
    await fillSequentially(ctx, dispatch, 8 - admitted, () => retryOf(waiting.shift()!), 'a retry below the retry limit');
    expectError(await resolveWithRetries(ctx, dispatch, retryOf(waiting.shift()!)), 'CAPACITY_EXCEEDED', { scope: 'tenant_retry' }, 'a retry at the retry limit');
    expectEqual(await held(), { counter: 8, units: 8 }, 'retry counter and replica units at the limit');
  },
});
