import { unchecked } from '../../harness/client.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/registry-owned-fields-are-invalid-request',
  clause: 'records-replica-capacity',
  category: 'records',
  description: 'provisioning or health reports that carry active_assignments or circuit state are 400',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const r = fleet.replicas[0]!;
    const fresh = { ...r, id: ctx.ids.replica() };
    const owned = [{ active_assignments: 0 }, { circuit: { state: 'closed', consecutive_failures: 0, open_until: null } }];
    for (const extra of owned) {
      const provision = await ctx.lifecycle.call('provisionReplica', {
        params: { replica_id: fresh.id },
        body: unchecked({ ...fresh, ...extra }),
      });
      expectError(provision, 'INVALID_REQUEST', undefined, `provisioning with ${Object.keys(extra)[0]}`);
      const report = {
        health_revision: r.health_revision + 1,
        status: 'ready',
        lease_expires_at: r.lease_expires_at,
        capacity: r.capacity,
        ...extra,
      };
      expectError(
        await ctx.lifecycle.call('reportHealth', { params: { replica_id: r.id }, body: unchecked(report) }),
        'INVALID_REQUEST',
        undefined,
        `health with ${Object.keys(extra)[0]}`,
      );
    }
    expectError(
      await ctx.reader.call('getReplica', { params: { replica_id: fresh.id } }),
      'NOT_FOUND',
      undefined,
      'the replica after the refusals',
    );
  },
});
