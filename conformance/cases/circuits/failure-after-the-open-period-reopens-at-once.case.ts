import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError } from '../../harness/expect.ts';

const PERIOD_MS = 2000;

export default defineCase({
  id: 'circuits/failure-after-the-open-period-reopens-at-once',
  clause: 'circuit-half-open',
  category: 'circuits',
  flags: ['slow'],
  description: 'after the open period the failure count is kept: one more unknown outcome reopens the circuit',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10, policy: { circuit_failure_threshold: 2, circuit_open_ms: PERIOD_MS } });
    const replica = fleet.replicas[0]!.id;
    const cycle = async (outcome: 'completed' | 'outcome_unknown') => ctx.fx.settle(await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action()), outcome);
    const waitOut = async () => {
      const { open_until } = (await ctx.fx.replicaState(replica)).circuit;
      await ctx.sleep(ctx.clock.until(Date.parse(open_until ?? '')) + 300 + Math.min(ctx.clock.uncertaintyMs, 2000));
    };
    await cycle('outcome_unknown');
    await cycle('outcome_unknown');
    await waitOut();
    await cycle('outcome_unknown');
    const reopened = (await ctx.fx.replicaState(replica)).circuit;
    expectEqual(reopened.state, 'open', 'circuit after one more unknown outcome past the open period');
    const refused = await ctx.dispatch(fleet.tenant).call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: fleet.capability } });
    expectError(refused, 'REPLICA_UNAVAILABLE', undefined, 'a new action once reopened');
    await waitOut();
    await cycle('completed');
    const closed = (await ctx.fx.replicaState(replica)).circuit;
    expectEqual([closed.state, closed.consecutive_failures], ['closed', 0], 'circuit after a completed outcome');
  },
});
