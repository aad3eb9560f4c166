import { defineCase } from '../../harness/define-case.ts';
import { expectAtLeast, expectEqual, expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'admission/noisy-tenant-gets-exactly-its-limit',
  clause: 'admission-all-or-nothing',
  category: 'admission',
  flags: ['concurrent'],
  description: 'tenant limit 4 under 64 parallel resolves: exactly 4 admitted, 60 refused for the tenant',
  async run(ctx) {
    const noisy = await ctx.fx.fleet({ replicas: 4, capacity: 100, policy: { max_tenant_in_flight: 4, max_instance_in_flight: 100 } });
    const calm = await ctx.fx.fleet({ capacity: 10, policy: { max_tenant_in_flight: 4 } });
    const dispatch = ctx.dispatch(noisy.tenant);
    const [replies, calmViews] = await Promise.all([
      Promise.all(Array.from({ length: 64 }, () => dispatch.call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: noisy.capability } }))),
      Promise.all(Array.from({ length: 4 }, () => ctx.fx.resolve(calm.tenant, calm.capability, ctx.ids.action()))),
    ]);
    const admitted = replies.filter((r) => r.status === 200);
    expectEqual(admitted.length, 4, 'admitted resolves of the noisy tenant');
    for (const r of replies.filter((x) => x.status !== 200)) {
      const error = expectError(r, 'CAPACITY_EXCEEDED', { scope: 'tenant' });
      expectAtLeast(error.retry_after_ms ?? 0, 1, 'retry_after_ms', r.exchange);
    }
    for (const r of admitted) expectOk(r);
    expectEqual(await ctx.fx.counter('tenant', noisy.tenant), 4, 'tenant counter');
    expectEqual(await ctx.fx.counter('instance', noisy.instance.id), 4, 'instance counter: refusals reserved nothing');
    expectEqual(calmViews.length, 4, 'routes of the calm tenant');
  },
});
