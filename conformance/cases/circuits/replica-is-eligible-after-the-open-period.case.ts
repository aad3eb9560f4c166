import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectIdentical } from '../../harness/expect.ts';

const PERIOD_MS = 2000;

export default defineCase({
  id: 'circuits/replica-is-eligible-after-the-open-period',
  clause: 'circuit-half-open',
  category: 'circuits',
  flags: ['slow'],
  description: 'once the open period has passed the replica takes new actions and retries again',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10, policy: { circuit_failure_threshold: 1, circuit_open_ms: PERIOD_MS } });
    const pinned = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.settle(pinned, 'completed');
    await ctx.fx.settle(await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action()), 'outcome_unknown');
    const { open_until } = (await ctx.fx.replicaState(fleet.replicas[0]!.id)).circuit;
    const refused = await ctx.dispatch(fleet.tenant).call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: fleet.capability } });
    expectError(refused, 'REPLICA_UNAVAILABLE', undefined, 'a new action while open');
    await ctx.sleep(ctx.clock.until(Date.parse(open_until ?? '')) + 300 + Math.min(ctx.clock.uncertaintyMs, 2000));
    const fresh = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    expectIdentical(fresh.assignment.replica_id, fleet.replicas[0]!.id, 'replica of a new action after the period');
    const retry = await ctx.fx.resolve(fleet.tenant, fleet.capability, pinned.assignment.action_id);
    expectIdentical(retry.assignment, pinned.assignment, 'a retry after the period');
  },
});
