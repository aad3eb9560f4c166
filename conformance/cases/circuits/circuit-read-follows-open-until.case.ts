import { MINUTE } from '../../harness/clock.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectTrue } from '../../harness/expect.ts';

export default defineCase({
  id: 'circuits/circuit-read-follows-open-until',
  clause: 'circuit-read',
  category: 'circuits',
  description: 'a circuit reads closed with open_until null before it opens, open with a future open_until after',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10, policy: { circuit_failure_threshold: 2, circuit_open_ms: 10 * MINUTE } });
    const replica = fleet.replicas[0]!.id;
    expectEqual(
      (await ctx.fx.replicaState(replica)).circuit,
      { state: 'closed', consecutive_failures: 0, open_until: null },
      'a new circuit',
    );
    await ctx.fx.settle(await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action()), 'outcome_unknown');
    expectEqual(
      (await ctx.fx.replicaState(replica)).circuit,
      { state: 'closed', consecutive_failures: 1, open_until: null },
      'a circuit below its threshold',
    );
    await ctx.fx.settle(await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action()), 'outcome_unknown');
    const open = (await ctx.fx.replicaState(replica)).circuit;
    expectEqual([open.state, open.consecutive_failures], ['open', 2], 'a circuit at its threshold');
    // Minutes ahead on the registry's clock: open exactly while now is before open_until.
    expectTrue(
      Date.parse(open.open_until ?? '') > ctx.clock.now() + MINUTE,
      `open_until ${open.open_until} lies ahead of the registry's now`,
    );
  },
});
