import { defineCase } from '../../harness/define-case.ts';
import { expectHandled } from '../../harness/clock.ts';
import { expectError, expectIdentical, expectOk, fail } from '../../harness/expect.ts';

/** Long enough that an ordinary target answers well inside it; a slower one is judged by the server clock. */
const PERIOD_MS = 4000;

export default defineCase({
  id: 'circuits/replica-is-eligible-after-the-open-period',
  clause: 'circuit-half-open',
  category: 'circuits',
  flags: ['slow'],
  description: 'once the open period has passed the replica takes new actions and retries again',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10, policy: { circuit_failure_threshold: 1, circuit_open_ms: PERIOD_MS } });
    const replica = fleet.replicas[0]!.id;
    const dispatch = ctx.dispatch(fleet.tenant);
    const resolve = (actionId: string) => dispatch.call('resolveRoute', { body: { action_id: actionId, capability_id: fleet.capability } });
    const pinned = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    await ctx.fx.settle(pinned, 'completed');
    await ctx.fx.settle(await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action()), 'outcome_unknown');
    const { open_until } = (await ctx.fx.replicaState(replica)).circuit;
    const openUntil = Date.parse(open_until ?? '');
    if (!Number.isFinite(openUntil))
      fail(`the circuit did not open at its threshold of 1: open_until is ${String(open_until)}`, { clause: 'circuit-opens' });

    const refused = await resolve(ctx.ids.action());
    expectHandled(ctx.clock, refused.exchange, 'before', openUntil, 'a new action while open', () =>
      expectError(refused, 'REPLICA_UNAVAILABLE', { instance_id: fleet.instance.id }, 'a new action while open'),
    );

    await ctx.sleep(ctx.clock.until(openUntil) + 300 + Math.min(ctx.clock.uncertaintyMs, 2000));
    const fresh = await resolve(ctx.ids.action());
    const view = expectHandled(ctx.clock, fresh.exchange, 'after', openUntil, 'a new action after the period', () =>
      expectOk(fresh, 'a new action after the period'),
    );
    expectIdentical(view.assignment.replica_id, replica, 'replica of a new action after the period');
    const again = await resolve(pinned.assignment.action_id);
    const retry = expectHandled(ctx.clock, again.exchange, 'after', openUntil, 'a retry after the period', () =>
      expectOk(again, 'a retry after the period'),
    );
    expectIdentical(retry.assignment, pinned.assignment, 'a retry after the period');
  },
});
