import type { ErrorBody } from '../../../contract/errors.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'pinned/retry-budget-admits-exactly-n-retries',
  clause: 'pinned-retry-budget',
  category: 'pinned',
  flags: ['concurrent'],
  description: 'with retry limit 8, 64 parallel retries admit exactly 8; 56 are CAPACITY_EXCEEDED tenant_retry',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 2, capacity: 100, policy: { max_tenant_retry_in_flight: 8 } });
    const views = await Promise.all(Array.from({ length: 64 }, () => ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action())));
    await Promise.all(views.map((v) => ctx.fx.settle(v, 'cancelled')));
    const dispatch = ctx.dispatch(fleet.tenant);
    const replies = await Promise.all(views.map((v) => dispatch.call('resolveRoute', { body: { action_id: v.assignment.action_id, capability_id: fleet.capability } })));
    const refused = replies.filter((r) => r.status !== 200);
    for (const r of refused) expectError(r, 'CAPACITY_EXCEEDED', { scope: 'tenant_retry' }, 'a retry beyond the budget');
    expectEqual(replies.length - refused.length, 8, `retries admitted (${refused.length} refused: ${[...new Set(refused.map((r) => (r.json as ErrorBody).error.code))].join(', ')})`);
    expectEqual(await ctx.fx.counter('tenant_retry', fleet.tenant), 8, 'retry counter');
    const active = await Promise.all(fleet.replicas.map((r) => ctx.fx.active(r.id)));
    expectEqual(active.reduce((a, b) => a + b, 0), 8, 'replica units held by the admitted retries');
  },
});
