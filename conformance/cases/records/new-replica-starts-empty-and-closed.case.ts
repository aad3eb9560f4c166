import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectIdentical, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/new-replica-starts-empty-and-closed',
  clause: 'records-replica-provision',
  category: 'records',
  description: 'a new replica has no active assignments, a closed circuit, and the provisioned fields',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 0 });
    const r = ctx.build.replica(ctx.ids.replica(), fleet.instance.id, fleet.version.id, ctx.clock.now() + 3_600_000, {
      capacity: 3,
      status: 'draining',
    });
    const written = expectOk(await ctx.lifecycle.call('provisionReplica', { params: { replica_id: r.id }, body: r }));
    expectEqual(written.outcome, 'applied', 'outcome');
    const read = await ctx.fx.replicaState(r.id);
    const { active_assignments, circuit, ...provisioned } = read;
    expectEqual(active_assignments, 0, 'active_assignments');
    expectEqual(circuit, { state: 'closed', consecutive_failures: 0, open_until: null }, 'circuit');
    expectIdentical(provisioned, r, 'the provisioned fields read back');
  },
});
