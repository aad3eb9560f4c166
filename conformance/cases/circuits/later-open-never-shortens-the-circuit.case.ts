import { defineCase } from '../../harness/define-case.ts';
import { MINUTE } from '../../harness/clock.ts';
import { expectAtLeast, expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'circuits/later-open-never-shortens-the-circuit',
  clause: 'circuit-opens',
  category: 'circuits',
  description: 'a failure pinned to a short open period never shortens a circuit opened for longer',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 10, policy: { circuit_failure_threshold: 1, circuit_open_ms: 20 * MINUTE } });
    const long = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const shortPolicy = await ctx.fx.policy({ circuit_failure_threshold: 1, circuit_open_ms: 100 });
    const b = fleet.binding;
    expectOk(
      await ctx.admin.call('putBinding', {
        params: { tenant_id: b.tenant_id, capability_id: b.capability_id, instance_id: b.instance_id },
        body: { ...b, quota_policy_ref: shortPolicy.policy_ref, policy_revision: 2 },
      }),
    );
    const short = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    expectEqual(short.assignment.admission.circuit_open_ms, 100, 'the second route pins the short period');
    await ctx.fx.settle(long, 'outcome_unknown');
    const opened = Date.parse((await ctx.fx.replicaState(long.assignment.replica_id)).circuit.open_until ?? '');
    await ctx.fx.settle(short, 'outcome_unknown');
    const circuit = (await ctx.fx.replicaState(long.assignment.replica_id)).circuit;
    expectEqual(circuit.state, 'open', 'circuit state');
    expectAtLeast(Date.parse(circuit.open_until ?? ''), opened, 'open_until after the short failure');
  },
});
