import { defineCase } from '../../harness/define-case.ts';
import { HOUR } from '../../harness/clock.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

/** A timestamp near `ms` whose millisecond part is exactly `millis`. */
function withMillis(ms: number, millis: number): string {
  return new Date(Math.floor(ms / 1000) * 1000 + millis).toISOString();
}

export default defineCase({
  id: 'wire/timestamps-keep-their-milliseconds',
  clause: 'wire-timestamps',
  category: 'wire',
  description: 'a stored timestamp is returned with exactly the millisecond value it was given',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ replicas: 0 });
    const lease = withMillis(ctx.clock.now() + 2 * HOUR, 123);
    const replica = await ctx.fx.replica(fleet.instance.id, fleet.version.id, { lease_expires_at: lease });
    const stored = expectOk(await ctx.reader.call('getReplica', { params: { replica_id: replica.id } }));
    expectEqual(stored.lease_expires_at, lease, 'lease after provisioning');

    const next = withMillis(ctx.clock.now() + 3 * HOUR, 7);
    const report = {
      health_revision: stored.health_revision + 1,
      status: 'ready' as const,
      lease_expires_at: next,
      capacity: stored.capacity,
    };
    const written = expectOk(await ctx.lifecycle.call('reportHealth', { params: { replica_id: replica.id }, body: report }));
    expectEqual(written.record.lease_expires_at, next, 'lease in the health write result');
    expectEqual(
      expectOk(await ctx.reader.call('getReplica', { params: { replica_id: replica.id } })).lease_expires_at,
      next,
      'lease read back',
    );
  },
});
