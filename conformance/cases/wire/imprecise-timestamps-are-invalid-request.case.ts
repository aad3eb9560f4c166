import { unchecked } from '../../harness/client.ts';
import { defineCase } from '../../harness/define-case.ts';
import { HOUR } from '../../harness/clock.ts';
import { expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'wire/imprecise-timestamps-are-invalid-request',
  clause: 'wire-timestamps',
  category: 'wire',
  description: 'timestamps without exactly three fractional digits, or not in UTC, are 400',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const replica = fleet.replicas[0]!;
    const base = new Date(Math.floor((ctx.clock.now() + 2 * HOUR) / 1000) * 1000).toISOString().slice(0, 19);
    const wrong = [`${base}Z`, `${base}.1Z`, `${base}.123456Z`, `${base}.000+01:00`, `${base}.000`, base.replace('T', ' ') + '.000Z'];
    for (const lease of wrong) {
      const report = { health_revision: 2, status: 'ready', lease_expires_at: lease, capacity: 10 };
      const reply = await ctx.lifecycle.call('reportHealth', { params: { replica_id: replica.id }, body: unchecked(report) });
      expectError(reply, 'INVALID_REQUEST', undefined, `lease_expires_at ${lease}`);
    }
    expectEqual((await ctx.fx.replicaState(replica.id)).health_revision, replica.health_revision, 'health revision after the refusals');
  },
});
