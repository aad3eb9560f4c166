import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'records/health-needs-larger-revision',
  clause: 'records-replica-health',
  category: 'records',
  description: 'a changed health report needs a larger health_revision; an identical one is unchanged',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: [{ health_revision: 5 }] });
    const r = fleet.replicas[0]!;
    const params = { replica_id: r.id };
    const same = { health_revision: 5, status: r.status, lease_expires_at: r.lease_expires_at, capacity: r.capacity };
    expectEqual(
      expectOk(await ctx.lifecycle.call('reportHealth', { params, body: same })).outcome,
      'unchanged',
      'a report equal to the stored state',
    );
    for (const health_revision of [5, 4]) {
      expectError(
        await ctx.lifecycle.call('reportHealth', { params, body: { ...same, health_revision, status: 'draining' } }),
        'CONFLICT',
        undefined,
        `a change at revision ${health_revision}`,
      );
    }
    const applied = expectOk(
      await ctx.lifecycle.call('reportHealth', { params, body: { ...same, health_revision: 6, status: 'draining' } }),
    );
    expectEqual(
      [applied.outcome, applied.record.status, applied.record.health_revision],
      ['applied', 'draining', 6],
      'a change at revision 6',
    );
    expectError(
      await ctx.lifecycle.call('reportHealth', { params: { replica_id: ctx.ids.replica('absent') }, body: same }),
      'NOT_FOUND',
      undefined,
      'unknown replica',
    );
  },
});
