import { SETTLEMENT_OUTCOMES } from '../../../contract/records.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual } from '../../harness/expect.ts';

export default defineCase({
  id: 'settlement/each-outcome-settles',
  clause: 'settle-outcomes',
  category: 'settlement',
  description: 'completed, outcome_unknown, cancelled and lease_expired each settle a held route',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10, policy: { circuit_failure_threshold: 100 } });
    for (const outcome of SETTLEMENT_OUTCOMES) {
      const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
      const result = await ctx.fx.settle(view, outcome);
      expectEqual(result, { action_id: view.assignment.action_id, released: true, last_settlement: outcome }, `settling ${outcome}`);
      const route = await ctx.fx.route(fleet.tenant, view.assignment.action_id);
      expectEqual([route.reserved, route.last_settlement], [false, outcome], `route after ${outcome}`);
    }
    expectEqual(await ctx.fx.active(fleet.replicas[0]!.id), 0, 'replica units after four settlements');
  },
});
