import { defineCase } from '../../harness/define-case.ts';
import { expectEqual } from '../../harness/expect.ts';

export default defineCase({
  id: 'settlement/settlement-releases-exactly-once',
  clause: 'settle-release-once',
  category: 'settlement',
  description: "settling releases exactly the attempt's scopes and one replica unit, and records the outcome",
  async run(ctx) {
    const fleet = await ctx.fx.fleet({
      capacity: 5,
      policy: { max_tenant_in_flight: 9, max_instance_in_flight: 9, max_tenant_retry_in_flight: 9 },
    });
    const keep = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.settle(view, 'outcome_unknown');
    const retry = await ctx.fx.resolve(fleet.tenant, fleet.capability, view.assignment.action_id);
    const held = async () => [
      await ctx.fx.counter('tenant', fleet.tenant),
      await ctx.fx.counter('instance', fleet.instance.id),
      await ctx.fx.counter('tenant_retry', fleet.tenant),
      await ctx.fx.active(keep.assignment.replica_id),
    ];
    expectEqual(await held(), [2, 2, 1, 2], 'tenant, instance, retry counters and replica units with two held');
    const result = await ctx.fx.settle(retry, 'cancelled');
    expectEqual(result.released, true, 'released');
    expectEqual(await held(), [1, 1, 0, 1], 'after settling the retry');
    const route = await ctx.fx.route(fleet.tenant, view.assignment.action_id);
    expectEqual([route.reserved, route.last_settlement], [false, 'cancelled'], 'the settled route');
  },
});
