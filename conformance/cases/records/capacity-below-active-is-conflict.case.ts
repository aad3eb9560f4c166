import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/capacity-below-active-is-conflict',
  clause: 'records-replica-capacity',
  category: 'records',
  description: 'a health report with capacity below active_assignments is 409; equal to it applies',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ capacity: 5 });
    const r = fleet.replicas[0]!;
    for (let i = 0; i < 2; i++) await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const report = { health_revision: r.health_revision + 1, status: 'ready' as const, lease_expires_at: r.lease_expires_at, capacity: 1 };
    expectError(
      await ctx.lifecycle.call('reportHealth', { params: { replica_id: r.id }, body: report }),
      'CONFLICT',
      undefined,
      'capacity 1 with 2 active',
    );
    expectEqual((await ctx.fx.replicaState(r.id)).capacity, 5, 'capacity after the refusal');
    const equal = expectOk(await ctx.lifecycle.call('reportHealth', { params: { replica_id: r.id }, body: { ...report, capacity: 2 } }));
    expectEqual([equal.record.capacity, equal.record.active_assignments], [2, 2], 'capacity 2 with 2 active');
  },
});
