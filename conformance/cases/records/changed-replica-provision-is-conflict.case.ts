import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectIdentical } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/changed-replica-provision-is-conflict',
  clause: 'records-replica-provision',
  category: 'records',
  description: 'provisioning an existing replica id with any field changed is 409, state changes included',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const r = fleet.replicas[0]!;
    const changes = [
      { endpoint: 'https://elsewhere.fleet.invalid/aip' },
      { topology: { ...r.topology, zone: 'other-zone' } },
      { peer_principal_id: 'service:someone-else' },
      { health_revision: r.health_revision + 1, status: 'draining' as const },
      { capacity: r.capacity + 1 },
    ];
    for (const change of changes) {
      const reply = await ctx.lifecycle.call('provisionReplica', { params: { replica_id: r.id }, body: { ...r, ...change } });
      expectError(reply, 'CONFLICT', undefined, `provisioning again with ${Object.keys(change).join(', ')}`);
    }
    const { active_assignments: _a, circuit: _c, ...stored } = await ctx.fx.replicaState(r.id);
    expectIdentical(stored, r, 'the stored replica');
  },
});
