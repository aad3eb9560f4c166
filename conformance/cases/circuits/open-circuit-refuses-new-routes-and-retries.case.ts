import { defineCase } from '../../harness/define-case.ts';
import { MINUTE } from '../../harness/clock.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'circuits/open-circuit-refuses-new-routes-and-retries',
  clause: 'circuit-opens',
  category: 'circuits',
  description: 'a replica with an open circuit takes neither new actions nor retries',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10, policy: { circuit_failure_threshold: 1, circuit_open_ms: 10 * MINUTE } });
    const pinned = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.settle(pinned, 'completed');
    await ctx.fx.settle(await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action()), 'outcome_unknown');
    const dispatch = ctx.dispatch(fleet.tenant);
    const fresh = await dispatch.call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: fleet.capability } });
    expectError(fresh, 'REPLICA_UNAVAILABLE', { instance_id: fleet.instance.id }, 'a new action');
    const retry = await dispatch.call('resolveRoute', {
      body: { action_id: pinned.assignment.action_id, capability_id: fleet.capability },
    });
    expectError(retry, 'REPLICA_UNAVAILABLE', { instance_id: fleet.instance.id }, 'a retry pinned to the replica');
  },
});
