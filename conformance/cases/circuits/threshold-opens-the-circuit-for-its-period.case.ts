import { defineCase } from '../../harness/define-case.ts';
import { MINUTE } from '../../harness/clock.ts';
import { expectAtLeast, expectAtMost, expectEqual } from '../../harness/expect.ts';

export default defineCase({
  id: 'circuits/threshold-opens-the-circuit-for-its-period',
  clause: 'circuit-opens',
  category: 'circuits',
  description: 'the pinned threshold of consecutive failures opens the circuit until now plus the pinned period',
  async run(ctx) {
    const period = 10 * MINUTE;
    const fleet = await ctx.fx.fleet({ capacity: 10, policy: { circuit_failure_threshold: 3, circuit_open_ms: period } });
    const replica = fleet.replicas[0]!.id;
    for (let i = 0; i < 2; i++)
      await ctx.fx.settle(await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action()), 'outcome_unknown');
    expectEqual((await ctx.fx.replicaState(replica)).circuit.state, 'closed', 'circuit below the threshold');
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const before = ctx.clock.now();
    await ctx.fx.settle(view, 'outcome_unknown');
    const after = ctx.clock.now();
    const circuit = (await ctx.fx.replicaState(replica)).circuit;
    expectEqual([circuit.state, circuit.consecutive_failures], ['open', 3], 'circuit at the threshold');
    const margin = 2000 + ctx.clock.uncertaintyMs;
    const until = Date.parse(circuit.open_until ?? '');
    expectAtLeast(until, before + period - margin, 'open_until against settlement time plus the pinned period');
    expectAtMost(until, after + period + margin, 'open_until against settlement time plus the pinned period');
  },
});
