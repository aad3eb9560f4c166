// Circuits (spec.md §14).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rejectsWith } from './expect.ts';
import { b, withWorld, type StoreFactory } from './world.ts';

export function circuitBehaviour(factory: StoreFactory): void {
  describe('circuits', () => {
    it('[circuit-counting] unknown outcomes count, completed resets, the rest are neutral', () =>
      withWorld(factory, async (w) => {
        await w.store.putAdmissionPolicy(b.policy('quota:cc', { circuit_failure_threshold: 10 }));
        const f = await w.fleet({ name: 'cc', quotaPolicyRef: 'quota:cc', capacity: 10 });
        const r = f.replicas[0]!.id;
        const failures = async () => (await w.store.getReplica(r))!.circuit.consecutive_failures;
        const cycle = async (n: number, outcome: 'completed' | 'outcome_unknown' | 'cancelled' | 'lease_expired') =>
          w.settle(await w.resolve('tenant-a', `act-cc-${n}`, f.capabilityIds[0]!), outcome);
        await cycle(1, 'outcome_unknown');
        await cycle(2, 'outcome_unknown');
        assert.equal(await failures(), 2);
        await cycle(3, 'cancelled');
        await cycle(4, 'lease_expired');
        assert.equal(await failures(), 2);
        await cycle(5, 'completed');
        assert.equal(await failures(), 0);
      }));

    it('[circuit-opens] the pinned threshold opens the circuit for the pinned duration', () =>
      withWorld(factory, async (w) => {
        await w.store.putAdmissionPolicy(b.policy('quota:co', { circuit_failure_threshold: 3, circuit_open_ms: 1000 }));
        const f = await w.fleet({ name: 'co', quotaPolicyRef: 'quota:co', capacity: 10 });
        const cap = f.capabilityIds[0]!;
        const pinned = await w.resolve('tenant-a', 'act-co-pinned', cap);
        await w.settle(pinned);
        for (let i = 0; i < 2; i++) await w.settle(await w.resolve('tenant-a', `act-co-${i}`, cap), 'outcome_unknown');
        assert.equal((await w.store.getReplica(f.replicas[0]!.id))!.circuit.state, 'closed', 'below the threshold');
        await w.settle(await w.resolve('tenant-a', 'act-co-2', cap), 'outcome_unknown');
        const replica = (await w.store.getReplica(f.replicas[0]!.id))!;
        assert.deepEqual(replica.circuit, { state: 'open', consecutive_failures: 3, open_until: new Date(w.now() + 1000).toISOString() });
        await rejectsWith(w.resolve('tenant-a', 'act-co-new', cap), 'REPLICA_UNAVAILABLE');
        await rejectsWith(w.resolve('tenant-a', 'act-co-pinned', cap), 'REPLICA_UNAVAILABLE');
        w.clock.advance(1000);
        assert.deepEqual((await w.resolve('tenant-a', 'act-co-pinned', cap)).assignment, pinned.assignment);
      }));

    it('[circuit-opens] a later open never shortens an open circuit', () =>
      withWorld(factory, async (w) => {
        await w.store.putAdmissionPolicy(b.policy('quota:long', { circuit_failure_threshold: 1, circuit_open_ms: 60000 }));
        await w.store.putAdmissionPolicy(b.policy('quota:short', { circuit_failure_threshold: 1, circuit_open_ms: 100 }));
        const f = await w.fleet({ name: 'ext', quotaPolicyRef: 'quota:long', capacity: 10 });
        const cap = f.capabilityIds[0]!;
        const long = await w.resolve('tenant-a', 'act-ext-long', cap);
        await w.store.putBinding({ ...f.binding, quota_policy_ref: 'quota:short', policy_revision: 2 });
        const short = await w.resolve('tenant-a', 'act-ext-short', cap);
        await w.settle(long, 'outcome_unknown');
        await w.settle(short, 'outcome_unknown');
        const openUntil = (await w.store.getReplica(f.replicas[0]!.id))!.circuit.open_until;
        assert.equal(openUntil, new Date(w.now() + 60000).toISOString());
      }));

    it('[circuit-half-open] after the open period one unknown outcome reopens it at once', () =>
      withWorld(factory, async (w) => {
        await w.store.putAdmissionPolicy(b.policy('quota:half', { circuit_failure_threshold: 2, circuit_open_ms: 100 }));
        const f = await w.fleet({ name: 'half', quotaPolicyRef: 'quota:half', capacity: 10 });
        const cap = f.capabilityIds[0]!;
        for (let i = 0; i < 2; i++) await w.settle(await w.resolve('tenant-a', `act-half-${i}`, cap), 'outcome_unknown');
        w.clock.advance(100);
        await w.settle(await w.resolve('tenant-a', 'act-half-2', cap), 'outcome_unknown');
        await rejectsWith(w.resolve('tenant-a', 'act-half-3', cap), 'REPLICA_UNAVAILABLE');
        w.clock.advance(100);
        await w.settle(await w.resolve('tenant-a', 'act-half-4', cap), 'completed');
        const c = (await w.store.getReplica(f.replicas[0]!.id))!.circuit;
        assert.equal(c.state, 'closed');
        assert.equal(c.consecutive_failures, 0);
      }));
  });
}
