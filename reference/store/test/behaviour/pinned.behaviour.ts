// Pinned routes (spec.md §12).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rejectsWith } from './expect.ts';
import { b, HOUR, withWorld, type StoreFactory } from './world.ts';

export function pinnedBehaviour(factory: StoreFactory): void {
  describe('pinned routes', () => {
    it('[pinned-identical] a better replica appearing does not move a retry', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'better', capacity: 10 });
        const first = await w.resolve('tenant-a', 'act-better', f.capabilityIds[0]!);
        await w.settle(first);
        await w.store.provisionReplica(b.replica('crepl_better_new', f.instance.id, f.version.id, w.now() + HOUR, { capacity: 1000 }));
        await w.health(f.replicas[0]!.id, { capacity: 1 });
        const again = await w.resolve('tenant-a', 'act-better', f.capabilityIds[0]!);
        assert.deepEqual(again.assignment, first.assignment);
      }));

    it('[pinned-identical] credential rotation: old routes keep the old revision, new ones get the new', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'rot' });
        const cap = f.capabilityIds[0]!;
        const old = await w.resolve('tenant-a', 'act-rot-old', cap);
        await w.settle(old);
        await w.store.putBinding({ ...f.binding, credential_revision_ref: 'credential-revision-2', policy_revision: 2 });
        const retried = await w.resolve('tenant-a', 'act-rot-old', cap);
        assert.deepEqual(retried.assignment, old.assignment);
        assert.equal(retried.assignment.credential_revision_ref, 'credential-revision-1');
        const fresh = await w.resolve('tenant-a', 'act-rot-new', cap);
        assert.equal(fresh.assignment.credential_revision_ref, 'credential-revision-2');
        assert.equal(fresh.assignment.binding_policy_revision, 2);
      }));

    it('[pinned-identical] after a rollout, retries of older actions fail and never move', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'ro' });
        const cap = f.capabilityIds[0]!;
        const old = await w.resolve('tenant-a', 'act-ro', cap);
        await w.settle(old);
        const v2 = b.version('cver_ro_2', f.typeId, f.version.manifest.capabilities, { version: '2.0.0' });
        await w.store.admitVersion(v2);
        await w.store.putInstance({ ...f.instance, version_id: v2.id, config_revision: 2 });
        await w.store.provisionReplica(b.replica('crepl_ro_v2', f.instance.id, v2.id, w.now() + HOUR));
        await w.health(f.replicas[0]!.id, { status: 'draining' });
        await rejectsWith(w.resolve('tenant-a', 'act-ro', cap), 'REPLICA_UNAVAILABLE', { instance_id: f.instance.id });
        assert.deepEqual((await w.store.route('tenant-a', 'act-ro'))!.assignment, old.assignment);
        const fresh = await w.resolve('tenant-a', 'act-ro-new', cap);
        assert.equal(fresh.assignment.replica_id, 'crepl_ro_v2');
        assert.equal(fresh.assignment.version_id, v2.id);
      }));

    it('[pinned-reacquire] a draining pinned replica still takes its retries', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'drain', replicas: 2 });
        const cap = f.capabilityIds[0]!;
        const v = await w.resolve('tenant-a', 'act-drain', cap);
        await w.settle(v);
        await w.health(v.assignment.replica_id, { status: 'draining' });
        const again = await w.resolve('tenant-a', 'act-drain', cap);
        assert.deepEqual(again.assignment, v.assignment);
        assert.equal(await w.active(v.assignment.replica_id), 1);
        const fresh = await w.resolve('tenant-a', 'act-drain-new', cap);
        assert.notEqual(fresh.assignment.replica_id, v.assignment.replica_id, 'no new work for a draining replica');
      }));

    it('[pinned-reserved] a held route is returned as is and reserves nothing more', () =>
      withWorld(factory, async (w) => {
        await w.store.putAdmissionPolicy(b.policy('quota:held', { max_tenant_in_flight: 5 }));
        const f = await w.fleet({ name: 'held', quotaPolicyRef: 'quota:held' });
        const first = await w.resolve('tenant-a', 'act-held', f.capabilityIds[0]!);
        for (let i = 0; i < 3; i++) assert.deepEqual(await w.resolve('tenant-a', 'act-held', f.capabilityIds[0]!), first);
        assert.equal(await w.active(first.assignment.replica_id), 1);
        assert.equal(await w.counter('tenant', 'tenant-a'), 1);
      }));

    it('[pinned-conflict] another capability or tenant on the same action id conflicts', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'pc', capabilities: ['cap:pc:a', 'cap:pc:b'] });
        await w.fleet({ name: 'pc_other', tenantId: 'tenant-b', capabilities: ['cap:pc:a'] });
        await w.resolve('tenant-a', 'act-pc', 'cap:pc:a');
        await rejectsWith(w.resolve('tenant-a', 'act-pc', 'cap:pc:b'), 'CONFLICT');
        await rejectsWith(w.resolve('tenant-b', 'act-pc', 'cap:pc:a'), 'CONFLICT');
        assert.equal(f.capabilityIds.length, 2);
      }));

    it('[pinned-reacquire] a retry reserves the base scopes plus the retry scope on the same replica', () =>
      withWorld(factory, async (w) => {
        await w.store.putAdmissionPolicy(b.policy('quota:re', { max_tenant_in_flight: 10, max_tenant_retry_in_flight: 10 }));
        const f = await w.fleet({ name: 're', quotaPolicyRef: 'quota:re', replicas: 3 });
        const v = await w.resolve('tenant-a', 'act-re', f.capabilityIds[0]!);
        assert.equal(await w.counter('tenant_retry', 'tenant-a'), 0, 'a first attempt is not a retry');
        await w.settle(v, 'outcome_unknown');
        const again = await w.resolve('tenant-a', 'act-re', f.capabilityIds[0]!);
        assert.equal(again.assignment.replica_id, v.assignment.replica_id);
        assert.equal(await w.counter('tenant', 'tenant-a'), 1);
        assert.equal(await w.counter('tenant_retry', 'tenant-a'), 1);
        await w.settle(again);
        assert.equal(await w.counter('tenant', 'tenant-a'), 0);
        assert.equal(await w.counter('tenant_retry', 'tenant-a'), 0);
      }));

    it('[pinned-replica-conditions] offline, expired, full, disabled or revoked targets refuse retries', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'cond', capacity: 2 });
        const cap = f.capabilityIds[0]!;
        const r = f.replicas[0]!.id;
        const v = await w.resolve('tenant-a', 'act-cond', cap);
        await w.settle(v);
        const refuse = async (what: string) => {
          await rejectsWith(w.resolve('tenant-a', 'act-cond', cap), 'REPLICA_UNAVAILABLE', { instance_id: f.instance.id });
          assert.equal((await w.store.route('tenant-a', 'act-cond'))!.reserved, false, what);
        };
        await w.health(r, { status: 'offline' });
        await refuse('offline');
        await w.health(r, { status: 'ready', leaseMs: w.now() });
        await refuse('expired lease');
        await w.health(r, { leaseMs: w.now() + HOUR });
        await w.resolve('tenant-a', 'act-cond-x', cap);
        await w.resolve('tenant-a', 'act-cond-y', cap);
        await refuse('full');
        await w.settle((await w.store.route('tenant-a', 'act-cond-x'))!);
        await w.store.putInstance({ ...f.instance, status: 'disabled', config_revision: 2 });
        await refuse('instance disabled');
        await w.store.putInstance({ ...f.instance, config_revision: 3 });
        await w.store.setConnectorTypeEnabled(f.typeId, false);
        await refuse('type disabled');
        await w.store.setConnectorTypeEnabled(f.typeId, true);
        await w.store.setVersionStatus(f.version.id, 'revoked');
        await refuse('version revoked');
      }));

    it('[pinned-identical] disabling the binding does not stop a retry', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'bdis' });
        const v = await w.resolve('tenant-a', 'act-bdis', f.capabilityIds[0]!);
        await w.settle(v);
        await w.store.putBinding({ ...f.binding, enabled: false, policy_revision: 2 });
        assert.deepEqual((await w.resolve('tenant-a', 'act-bdis', f.capabilityIds[0]!)).assignment, v.assignment);
      }));

    it('[pinned-precedence] admission scopes are checked before the replica', () =>
      withWorld(factory, async (w) => {
        await w.store.putAdmissionPolicy(b.policy('quota:prec', { max_tenant_retry_in_flight: 1 }));
        const f = await w.fleet({ name: 'pprec', quotaPolicyRef: 'quota:prec', capacity: 5 });
        const cap = f.capabilityIds[0]!;
        const a = await w.resolve('tenant-a', 'act-pprec-a', cap);
        const bb = await w.resolve('tenant-a', 'act-pprec-b', cap);
        await w.settle(a);
        await w.settle(bb);
        await w.resolve('tenant-a', 'act-pprec-a', cap);
        await w.health(f.replicas[0]!.id, { status: 'offline' });
        await rejectsWith(w.resolve('tenant-a', 'act-pprec-b', cap), 'CAPACITY_EXCEEDED', { scope: 'tenant_retry' });
      }));

    it('[pinned-retry-budget] retry limit N admits N concurrent retries', () =>
      withWorld(factory, async (w) => {
        await w.store.putAdmissionPolicy(b.policy('quota:storm', { max_tenant_retry_in_flight: 8 }));
        const f = await w.fleet({ name: 'storm', quotaPolicyRef: 'quota:storm', capacity: 100 });
        const cap = f.capabilityIds[0]!;
        for (let i = 0; i < 64; i++) await w.settle(await w.resolve('tenant-a', `act-storm-${i}`, cap), 'cancelled');
        const results = await Promise.allSettled(Array.from({ length: 64 }, (_, i) => w.resolve('tenant-a', `act-storm-${i}`, cap)));
        const admitted = results.filter((r) => r.status === 'fulfilled').length;
        const refused = results.filter(
          (r) => r.status === 'rejected' && (r.reason as { code?: string; details?: { scope?: string } }).details?.scope === 'tenant_retry',
        ).length;
        assert.equal(admitted, 8);
        assert.equal(refused, 56);
        assert.equal(await w.counter('tenant_retry', 'tenant-a'), 8);
      }));
  });
}
