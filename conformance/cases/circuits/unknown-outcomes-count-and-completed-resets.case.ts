import { defineCase } from '../../harness/define-case.ts';
import { expectEqual } from '../../harness/expect.ts';

export default defineCase({
  id: 'circuits/unknown-outcomes-count-and-completed-resets',
  clause: 'circuit-counting',
  category: 'circuits',
  description: 'each released outcome_unknown adds a consecutive failure; completed resets them to zero',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10, policy: { circuit_failure_threshold: 10 } });
    const replica = fleet.replicas[0]!.id;
    const failures = async () => (await ctx.fx.replicaState(replica)).circuit.consecutive_failures;
    const cycle = async (outcome: 'completed' | 'outcome_unknown') =>
      ctx.fx.settle(await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action()), outcome);
    for (let i = 1; i <= 3; i++) {
      await cycle('outcome_unknown');
      expectEqual(await failures(), i, `consecutive failures after ${i} unknown outcomes`);
    }
    await cycle('completed');
    const circuit = (await ctx.fx.replicaState(replica)).circuit;
    expectEqual([circuit.state, circuit.consecutive_failures], ['closed', 0], 'circuit after a completed outcome');
  },
});
