import { SETTLEMENT_OUTCOMES } from '../../../contract/records.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectIdentical } from '../../harness/expect.ts';
import { snapshotFleet } from '../../harness/snapshot.ts';

export default defineCase({
  id: 'settlement/settling-an-unreserved-route-has-no-effect',
  clause: 'settle-idempotent',
  category: 'settlement',
  description: 'settling a route that holds no reservation succeeds and changes nothing, whatever the outcome',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({
      capacity: 5,
      policy: { max_tenant_in_flight: 9, max_instance_in_flight: 9, circuit_failure_threshold: 1 },
    });
    const other = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.settle(view, 'completed');
    const actions = [view.assignment.action_id, other.assignment.action_id];
    for (const outcome of SETTLEMENT_OUTCOMES) {
      const before = await snapshotFleet(ctx, fleet, actions);
      const result = await ctx.fx.settle(view, outcome);
      expectEqual(result, { action_id: view.assignment.action_id, released: false, last_settlement: 'completed' }, `replaying ${outcome}`);
      expectIdentical(await snapshotFleet(ctx, fleet, actions), before, `the fleet after replaying ${outcome}`);
    }
    expectEqual(
      (await ctx.fx.replicaState(fleet.replicas[0]!.id)).circuit.state,
      'closed',
      'circuit after a replayed outcome_unknown with threshold 1',
    );
  },
});
