import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectIdentical, expectUnchangedOrConflict } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/changed-replica-provision-is-conflict',
  clause: 'records-replica-provision',
  category: 'records',
  description: 'reprovisioning a replica with a fixed field changed is 409; with only its state, 409 or unchanged',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const r = fleet.replicas[0]!;
    const changes = [
      { endpoint: 'https://elsewhere.fleet.invalid/aip' },
      { topology: { ...r.topology, zone: 'other-zone' } },
      { peer_principal_id: 'service:someone-else' },
    ];
    for (const change of changes) {
      const reply = await ctx.lifecycle.call('provisionReplica', { params: { replica_id: r.id }, body: { ...r, ...change } });
      expectError(reply, 'CONFLICT', undefined, `provisioning again with ${Object.keys(change).join(', ')}`);
    }
    // State that health reports own: a registry may compare only the fixed fields.
    const stateChanges = [{ health_revision: r.health_revision + 1, status: 'draining' as const }, { capacity: r.capacity + 1 }];
    for (const change of stateChanges) {
      const reply = await ctx.lifecycle.call('provisionReplica', { params: { replica_id: r.id }, body: { ...r, ...change } });
      expectUnchangedOrConflict(reply, `provisioning again with only ${Object.keys(change).join(', ')} changed`);
    }
    const { active_assignments: _a, circuit: _c, ...stored } = await ctx.fx.replicaState(r.id);
    expectIdentical(stored, r, 'the stored replica');
  },
});
