// Replica leases and lease maintenance (spec.md §15).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rejectsWith } from './expect.ts';
import { b, HOUR, withWorld, type StoreFactory } from './world.ts';

export function leaseBehaviour(factory: StoreFactory): void {
  describe('leases', () => {
    it('[lease-expired-not-routable] a lease at or before now takes no new route nor retry', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'lx' });
        const cap = f.capabilityIds[0]!;
        const v = await w.resolve('tenant-a', 'act-lx', cap);
        await w.settle(v);
        await w.health(f.replicas[0]!.id, { leaseMs: w.now() + 10 });
        w.clock.advance(10);
        await rejectsWith(w.resolve('tenant-a', 'act-lx-new', cap), 'REPLICA_UNAVAILABLE');
        await rejectsWith(w.resolve('tenant-a', 'act-lx', cap), 'REPLICA_UNAVAILABLE');
      }));

    it('[lease-expiry-bounded] at most limit per call, oldest lease first, then replica id', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'lb', replicas: 5 });
        const ids = f.replicas.map((r) => r.id);
        await w.health(ids[3]!, { leaseMs: w.now() - 3000 });
        await w.health(ids[1]!, { leaseMs: w.now() - 2000 });
        await w.health(ids[0]!, { leaseMs: w.now() - 2000 });
        await w.health(ids[4]!, { leaseMs: w.now() });
        await rejectsWith(w.store.expireLeases(0), 'INVALID_REQUEST');
        await rejectsWith(w.store.expireLeases(w.store.limits.max_expiry_batch + 1), 'INVALID_REQUEST');
        assert.deepEqual(await w.store.expireLeases(2), { expired: 2 });
        const offline = async () => (await Promise.all(ids.map((id) => w.store.getReplica(id)))).map((r) => r!.status === 'offline');
        assert.deepEqual(
          await offline(),
          [false, false, false, true, true].map((_, i) => i === 3 || i === 0),
          'lease order, then replica id',
        );
        assert.deepEqual(await w.store.expireLeases(2), { expired: 2 });
        assert.deepEqual(await offline(), [true, true, false, true, true], 'the boundary is inclusive');
        assert.deepEqual(await w.store.expireLeases(2), { expired: 0 });
      }));

    it('[lease-expiry-effect] expired replicas go offline and release their reservations', () =>
      withWorld(factory, async (w) => {
        await w.store.putAdmissionPolicy(
          b.policy('quota:le', { max_tenant_in_flight: 9, max_tenant_retry_in_flight: 9, circuit_failure_threshold: 1 }),
        );
        const f = await w.fleet({ name: 'le', quotaPolicyRef: 'quota:le', capacity: 5 });
        const cap = f.capabilityIds[0]!;
        const r = f.replicas[0]!.id;
        const tripped = await w.resolve('tenant-a', 'act-le-trip', cap);
        const held = [await w.resolve('tenant-a', 'act-le-1', cap), await w.resolve('tenant-a', 'act-le-2', cap)];
        await w.settle(tripped, 'outcome_unknown');
        const before = (await w.store.getReplica(r))!;
        assert.equal(before.active_assignments, 2);
        assert.equal(before.circuit.state, 'open');
        await w.health(r, { leaseMs: w.now() - 5 });
        const revision = await w.store.catalogRevision();
        assert.deepEqual(await w.store.expireLeases(10), { expired: 1 });
        const after = (await w.store.getReplica(r))!;
        assert.equal(after.status, 'offline');
        assert.equal(after.active_assignments, 0);
        assert.equal(after.health_revision, before.health_revision + 2);
        assert.ok(Date.parse(after.lease_expires_at) <= w.now());
        assert.deepEqual(after.circuit, before.circuit, 'circuits are unchanged');
        assert.equal(await w.counter('tenant', 'tenant-a'), 0);
        for (const h of held)
          assert.deepEqual(await w.store.route('tenant-a', h.assignment.action_id), {
            assignment: h.assignment,
            reserved: false,
            last_settlement: 'lease_expired',
          });
        assert.equal(await w.store.catalogRevision(), revision);
      }));

    it('[lease-expiry-keeps-routes] a recovered replica takes its pinned retries with identical assignments', () =>
      withWorld(factory, async (w) => {
        await w.store.putAdmissionPolicy(b.policy('quota:lk', { max_tenant_retry_in_flight: 9 }));
        const f = await w.fleet({ name: 'lk', quotaPolicyRef: 'quota:lk' });
        const cap = f.capabilityIds[0]!;
        const v = await w.resolve('tenant-a', 'act-lk', cap);
        await w.health(f.replicas[0]!.id, { leaseMs: w.now() - 1 });
        await w.store.expireLeases(10);
        await rejectsWith(w.resolve('tenant-a', 'act-lk', cap), 'REPLICA_UNAVAILABLE');
        await w.health(f.replicas[0]!.id, { status: 'ready', leaseMs: w.now() + HOUR });
        const again = await w.resolve('tenant-a', 'act-lk', cap);
        assert.deepEqual(again.assignment, v.assignment);
        assert.equal(await w.counter('tenant_retry', 'tenant-a'), 1, 'a retry after expiry uses the retry budget');
      }));
  });
}
