import { defineCase } from '../../harness/define-case.ts';
import { expectEqual } from '../../harness/expect.ts';

export default defineCase({
  id: 'circuits/cancelled-and-lease-expired-are-neutral',
  clause: 'circuit-counting',
  category: 'circuits',
  description: 'cancelled and lease_expired settlements leave the consecutive failures as they were',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10, policy: { circuit_failure_threshold: 10 } });
    const replica = fleet.replicas[0]!.id;
    const cycle = async (outcome: 'cancelled' | 'lease_expired' | 'outcome_unknown') =>
      ctx.fx.settle(await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action()), outcome);
    await cycle('outcome_unknown');
    await cycle('outcome_unknown');
    await cycle('cancelled');
    await cycle('lease_expired');
    const circuit = (await ctx.fx.replicaState(replica)).circuit;
    expectEqual(
      [circuit.state, circuit.consecutive_failures],
      ['closed', 2],
      'circuit after two unknown, one cancelled and one lease_expired',
    );
  },
});
