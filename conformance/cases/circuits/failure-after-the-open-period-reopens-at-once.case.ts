import type { SettlementOutcome } from '../../../contract/records.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectHandled, handledWindow } from '../../harness/clock.ts';
import { expectAtLeast, expectEqual, expectError, expectOk, fail } from '../../harness/expect.ts';

/** Long enough that an ordinary target answers well inside it; a slower one is judged by the server clock. */
const PERIOD_MS = 4000;

export default defineCase({
  id: 'circuits/failure-after-the-open-period-reopens-at-once',
  clause: 'circuit-half-open',
  category: 'circuits',
  flags: ['slow'],
  description: 'after the open period the failure count is kept: one more unknown outcome reopens the circuit',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10, policy: { circuit_failure_threshold: 2, circuit_open_ms: PERIOD_MS } });
    const replica = fleet.replicas[0]!.id;
    const dispatch = ctx.dispatch(fleet.tenant);
    const resolveNew = () => dispatch.call('resolveRoute', { body: { action_id: ctx.ids.action(), capability_id: fleet.capability } });
    const readCircuit = async () => {
      const reply = await ctx.reader.call('getReplica', { params: { replica_id: replica } });
      return { circuit: expectOk(reply, 'getReplica').circuit, exchange: reply.exchange };
    };
    const openUntilOf = (openUntil: string | null, what: string): number => {
      const ms = Date.parse(openUntil ?? '');
      if (!Number.isFinite(ms)) fail(`${what}: open_until is ${String(openUntil)}`, { clause: 'circuit-opens' });
      return ms;
    };
    /** A new action once the circuit has closed again, settled with `outcome`; returns the settlement's exchange. */
    const cycleAfter = async (openUntil: number, outcome: SettlementOutcome) => {
      await ctx.sleep(ctx.clock.until(openUntil) + 300 + Math.min(ctx.clock.uncertaintyMs, 2000));
      const reply = await resolveNew();
      const view = expectHandled(ctx.clock, reply.exchange, 'after', openUntil, 'a new action after the open period', () =>
        expectOk(reply, 'a new action after the open period'),
      );
      const settled = await dispatch.call('settleRoute', {
        params: { action_id: view.assignment.action_id },
        body: { assignment: view.assignment, outcome },
      });
      expectOk(settled, `settling with ${outcome}`);
      return settled.exchange;
    };

    for (let i = 0; i < 2; i++)
      await ctx.fx.settle(await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action()), 'outcome_unknown');
    const first = await readCircuit();
    const firstUntil = openUntilOf(first.circuit.open_until, 'the circuit after 2 unknown outcomes at threshold 2');

    const settlement = await cycleAfter(firstUntil, 'outcome_unknown');
    const reopened = await readCircuit();
    expectEqual(reopened.circuit.consecutive_failures, 3, 'consecutive failures kept across the open period');
    const reopenedUntil = openUntilOf(reopened.circuit.open_until, 'the circuit after one more unknown outcome');
    // Reopened by that settlement: until its own time plus the period, not left at the old instant.
    expectAtLeast(
      reopenedUntil,
      handledWindow(ctx.clock, settlement).earliest + PERIOD_MS - 500,
      'open_until after one more unknown outcome past the open period',
      reopened.exchange,
    );
    expectHandled(ctx.clock, reopened.exchange, 'before', reopenedUntil, 'the replica read after reopening', () =>
      expectEqual(reopened.circuit.state, 'open', 'circuit after one more unknown outcome past the open period', reopened.exchange),
    );
    const refused = await resolveNew();
    expectHandled(ctx.clock, refused.exchange, 'before', reopenedUntil, 'a new action once reopened', () =>
      expectError(refused, 'REPLICA_UNAVAILABLE', { instance_id: fleet.instance.id }, 'a new action once reopened'),
    );

    await cycleAfter(reopenedUntil, 'completed');
    const closed = (await readCircuit()).circuit;
    expectEqual([closed.state, closed.consecutive_failures], ['closed', 0], 'circuit after a completed outcome');
  },
});
