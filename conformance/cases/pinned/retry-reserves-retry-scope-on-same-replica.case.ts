import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectIdentical } from '../../harness/expect.ts';

export default defineCase({
  id: 'pinned/retry-reserves-retry-scope-on-same-replica',
  clause: 'pinned-reacquire',
  category: 'pinned',
  description: 'a retry reserves the base scopes, the retry scope and one unit of the same replica',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({
      replicas: 3,
      capacity: 10,
      policy: { max_tenant_in_flight: 10, max_instance_in_flight: 10, max_tenant_retry_in_flight: 10 },
    });
    const first = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    expectEqual(await ctx.fx.counter('tenant_retry', fleet.tenant), 0, 'retry counter after a first attempt');
    await ctx.fx.settle(first, 'outcome_unknown');
    const retry = await ctx.fx.resolve(fleet.tenant, fleet.capability, first.assignment.action_id);
    // The retry keeps the outcome that released the first attempt ([assignment-read]).
    expectIdentical(retry, { ...first, reserved: true, last_settlement: 'outcome_unknown' }, 'the retry');
    expectEqual(await ctx.fx.active(first.assignment.replica_id), 1, 'the pinned replica took one unit');
    const counters = [
      await ctx.fx.counter('tenant', fleet.tenant),
      await ctx.fx.counter('instance', fleet.instance.id),
      await ctx.fx.counter('tenant_retry', fleet.tenant),
    ];
    expectEqual(counters, [1, 1, 1], 'tenant, instance and retry counters during the retry');
    await ctx.fx.settle(retry);
    expectEqual(await ctx.fx.counter('tenant_retry', fleet.tenant), 0, 'retry counter after settling the retry');
  },
});
