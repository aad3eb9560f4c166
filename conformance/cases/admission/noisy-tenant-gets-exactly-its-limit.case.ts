import { expectBurstRefusal, fillSequentially, resolveForSetup, resolveWithRetries } from '../../harness/contention.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectAtMost, expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'admission/noisy-tenant-gets-exactly-its-limit',
  clause: 'admission-all-or-nothing',
  category: 'admission',
  flags: ['concurrent'],
  description: 'tenant limit 4, 64 parallel resolves: at most 4 admitted, exactly 4 in all, no refusal reserves',
  async run(ctx) {
    const noisy = await ctx.fx.fleet({ replicas: 4, capacity: 100, policy: { max_tenant_in_flight: 4, max_instance_in_flight: 100 } });
    const calm = await ctx.fx.fleet({ capacity: 10, policy: { max_tenant_in_flight: 4 } });
    const dispatch = ctx.dispatch(noisy.tenant);
    const fresh = () => ({ action_id: ctx.ids.action(), capability_id: noisy.capability });
    const counters = async () => ({ tenant: await ctx.fx.counter('tenant', noisy.tenant), instance: await ctx.fx.counter('instance', noisy.instance.id) });
    const [replies, calmViews] = await Promise.all([
      Promise.all(Array.from({ length: 64 }, () => dispatch.call('resolveRoute', { body: fresh() }))),
      Promise.all(Array.from({ length: 4 }, () => resolveForSetup(ctx, calm.tenant, calm.capability, ctx.ids.action()))),
    ]);
    for (const r of replies.filter((x) => x.status !== 200)) expectBurstRefusal(r, { scope: 'tenant', instanceId: noisy.instance.id }, 'a parallel resolve of the noisy tenant refused');
    const admitted = replies.filter((r) => r.status === 200).length;
    expectAtMost(admitted, 4, 'parallel resolves admitted for the noisy tenant');
    expectEqual(await counters(), { tenant: admitted, instance: admitted }, `tenant and instance counters after ${admitted} parallel routes: refusals reserved nothing`);
    // Contention may refuse below the limit; one at a time, exactly 4 fit and the fifth is refused for the tenant.
    await fillSequentially(ctx, dispatch, 4 - admitted, fresh, 'a resolve below the tenant limit');
    expectError(await resolveWithRetries(ctx, dispatch, fresh()), 'CAPACITY_EXCEEDED', { scope: 'tenant' }, 'a resolve at the tenant limit');
    expectEqual(await counters(), { tenant: 4, instance: 4 }, 'tenant and instance counters at the limit: the refusal reserved nothing');
    expectEqual(calmViews.length, 4, 'routes of the calm tenant');
    expectEqual(await ctx.fx.counter('tenant', calm.tenant), 4, 'tenant counter of the calm tenant');
  },
});
