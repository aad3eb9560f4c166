// Admission scopes (spec.md §11).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bindingScopeKey } from '../../../domain/digest.ts';
import { rejectsWith } from './expect.ts';
import { b, withWorld, type StoreFactory } from './world.ts';

export function admissionBehaviour(factory: StoreFactory): void {
  describe('admission scopes', () => {
    it('[admission-scopes] scopes in order, keyed as the contract says, off at the maximum', () =>
      withWorld(factory, async (w) => {
        await w.store.putAdmissionPolicy(
          b.policy('quota:all', {
            max_global_in_flight: 11,
            max_tenant_in_flight: 12,
            max_connector_type_in_flight: 13,
            max_instance_in_flight: 14,
            max_binding_in_flight: 15,
            max_tenant_retry_in_flight: 16,
            circuit_failure_threshold: 3,
            circuit_open_ms: 500,
          }),
        );
        const f = await w.fleet({ name: 'scopes', quotaPolicyRef: 'quota:all' });
        const cap = f.capabilityIds[0]!;
        const a = (await w.resolve('tenant-a', 'act-scopes', cap)).assignment;
        assert.deepEqual(a.admission, {
          policy_ref: 'quota:all',
          policy_revision: 1,
          base_scopes: [
            { kind: 'global', key: 'fleet', limit: 11 },
            { kind: 'tenant', key: 'tenant-a', limit: 12 },
            { kind: 'connector_type', key: f.typeId, limit: 13 },
            { kind: 'instance', key: f.instance.id, limit: 14 },
            { kind: 'binding', key: bindingScopeKey('tenant-a', cap, f.instance.id), limit: 15 },
          ],
          retry_scope: { kind: 'tenant_retry', key: 'tenant-a', limit: 16 },
          circuit_failure_threshold: 3,
          circuit_open_ms: 500,
        });
        await w.store.putAdmissionPolicy(b.policy('quota:all', { revision: 2, max_tenant_in_flight: 2 }));
        const off = (await w.resolve('tenant-a', 'act-scopes-2', cap)).assignment;
        assert.deepEqual(off.admission.base_scopes, [{ kind: 'tenant', key: 'tenant-a', limit: 2 }]);
        assert.equal(off.admission.retry_scope, null);
        assert.equal(off.admission.policy_revision, 2);
      }));

    it('[admission-implicit-default] a binding without a policy gets the implicit default', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'implicit' });
        const cap = f.capabilityIds[0]!;
        const a = (await w.resolve('tenant-a', 'act-implicit', cap)).assignment;
        assert.deepEqual(a.admission, {
          policy_ref: null,
          policy_revision: 1,
          base_scopes: [
            { kind: 'tenant', key: 'tenant-a', limit: 1000 },
            { kind: 'instance', key: f.instance.id, limit: 500 },
            { kind: 'binding', key: bindingScopeKey('tenant-a', cap, f.instance.id), limit: 250 },
          ],
          retry_scope: { kind: 'tenant_retry', key: 'tenant-a', limit: 100 },
          circuit_failure_threshold: 5,
          circuit_open_ms: 30000,
        });
        assert.equal(a.quota_policy_ref, null);
      }));

    it('[admission-counters] one counter per kind and key, shared across policies', () =>
      withWorld(factory, async (w) => {
        await w.store.putAdmissionPolicy(b.policy('quota:p1', { max_tenant_in_flight: 3 }));
        await w.store.putAdmissionPolicy(b.policy('quota:p2', { max_tenant_in_flight: 2 }));
        const one = await w.fleet({ name: 'shared_1', quotaPolicyRef: 'quota:p1', capabilities: ['cap:shared:1'] });
        const two = await w.fleet({ name: 'shared_2', quotaPolicyRef: 'quota:p2', capabilities: ['cap:shared:2'] });
        await w.resolve('tenant-a', 'act-sh-1', 'cap:shared:1');
        await w.resolve('tenant-a', 'act-sh-2', 'cap:shared:1');
        assert.equal(await w.counter('tenant', 'tenant-a'), 2);
        await rejectsWith(w.resolve('tenant-a', 'act-sh-3', 'cap:shared:2'), 'CAPACITY_EXCEEDED', { scope: 'tenant' });
        await w.resolve('tenant-a', 'act-sh-4', 'cap:shared:1');
        assert.equal(await w.counter('tenant', 'tenant-a'), 3);
        assert.equal(await w.counter('instance', 'cinst_never_used'), 0);
        assert.ok(one && two);
      }));

    it('[admission-all-or-nothing] noisy tenant: limit 4 of 64 concurrent, exactly 4 admitted', () =>
      withWorld(factory, async (w) => {
        await w.store.putAdmissionPolicy(b.policy('quota:noisy', { max_tenant_in_flight: 4, max_instance_in_flight: 100 }));
        const f = await w.fleet({ name: 'noisy', quotaPolicyRef: 'quota:noisy', replicas: 4, capacity: 100 });
        const healthy = await w.fleet({
          name: 'healthy',
          tenantId: 'tenant-h',
          quotaPolicyRef: 'quota:noisy',
          capabilities: ['cap:healthy'],
        });
        const noisy = Array.from({ length: 64 }, (_, i) => w.resolve('tenant-a', `act-noisy-${i}`, f.capabilityIds[0]!));
        const fine = Array.from({ length: 4 }, (_, i) => w.resolve('tenant-h', `act-healthy-${i}`, healthy.capabilityIds[0]!));
        const results = await Promise.allSettled(noisy);
        assert.equal(results.filter((r) => r.status === 'fulfilled').length, 4);
        const refusals = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
        assert.equal(refusals.length, 60);
        for (const e of refusals) {
          assert.equal(e.code, 'CAPACITY_EXCEEDED');
          assert.equal(e.details.scope, 'tenant');
          assert.ok(e.retryAfterMs > 0);
        }
        assert.equal((await Promise.allSettled(fine)).filter((r) => r.status === 'fulfilled').length, 4);
        assert.equal(await w.counter('tenant', 'tenant-a'), 4);
        assert.equal(await w.counter('instance', f.instance.id), 4, 'refused attempts reserved nothing');
      }));

    it('[admission-never-overbooked] replica capacity is a hard limit under concurrency', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'hard', replicas: 3, capacity: 2 });
        const results = await Promise.allSettled(
          Array.from({ length: 20 }, (_, i) => w.resolve('tenant-a', `act-hard-${i}`, f.capabilityIds[0]!)),
        );
        assert.equal(results.filter((r) => r.status === 'fulfilled').length, 6);
        for (const r of f.replicas) assert.equal(await w.active(r.id), 2);
      }));

    it('[admission-limits-pinned] limits stay as pinned when the policy changes', () =>
      withWorld(factory, async (w) => {
        await w.store.putAdmissionPolicy(b.policy('quota:pin', { max_tenant_in_flight: 1, max_tenant_retry_in_flight: 5 }));
        const f = await w.fleet({ name: 'pinlim', quotaPolicyRef: 'quota:pin', capacity: 10 });
        const cap = f.capabilityIds[0]!;
        const v = await w.resolve('tenant-a', 'act-pinlim', cap);
        await w.settle(v);
        await w.store.putAdmissionPolicy(b.policy('quota:pin', { revision: 2, enabled: false, max_tenant_in_flight: 50 }));
        const again = await w.resolve('tenant-a', 'act-pinlim', cap);
        assert.deepEqual(again.assignment.admission, v.assignment.admission, 'a retry keeps its pinned limits');
        await rejectsWith(w.resolve('tenant-a', 'act-pinlim-new', cap), 'ADMISSION_REJECTED');
      }));
  });
}
