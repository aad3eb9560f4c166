// Fleet status (spec.md §16) and batch administration (§17).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BatchItem } from '../../../../contract/records.ts';
import { rejectsWith, snapshot } from './expect.ts';
import { b, HOUR, withWorld, type StoreFactory } from './world.ts';

export function fleetBehaviour(factory: StoreFactory): void {
  describe('fleet status', () => {
    it('[fleet-status] counts by state with leases taken into account', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'fs', replicas: 5, capacity: 7 });
        await w.fleet({ name: 'fs_off', capabilities: ['cap:fs:off'] });
        await w.store.putInstance({
          ...b.instance('cinst_fs_off', 'ctype_fs_off', 'cver_fs_off', 'tenant-a'),
          status: 'disabled',
          config_revision: 2,
        });
        await w.store.setVersionStatus('cver_fs_off', 'admitted');
        const [ready, draining, offline, expiredReady, expiredOffline] = f.replicas.map((r) => r.id);
        await w.health(draining!, { status: 'draining' });
        await w.health(offline!, { status: 'offline' });
        await w.health(expiredReady!, { leaseMs: w.now() });
        await w.health(expiredOffline!, { status: 'offline', leaseMs: w.now() - 1 });
        await w.resolve('tenant-a', 'act-fs', f.capabilityIds[0]!);
        const s = await w.store.fleetStatus();
        assert.deepEqual(s, {
          catalog_revision: await w.store.catalogRevision(),
          connector_types: 2,
          active_versions: 1,
          enabled_instances: 1,
          replicas: 6,
          ready_replicas: 2,
          draining_replicas: 1,
          offline_replicas: 2,
          expired_leases: 2,
          ready_capacity: 7 + 10,
          active_assignments: 1,
          observed_at: new Date(w.now()).toISOString(),
        });
        assert.ok(ready);
      }));
  });

  describe('batch', () => {
    it('[batch-items] items apply in order, each with its own result; a rejection stops nothing', () =>
      withWorld(factory, async (w) => {
        const caps = [b.capability('cap:batch:a')];
        const items: BatchItem[] = [
          { op: 'put_connector_type', record: b.connectorType('ctype_batch') },
          { op: 'admit_version', record: b.version('cver_batch', 'ctype_batch', caps) },
          { op: 'put_instance', record: b.instance('cinst_batch', 'ctype_batch', 'cver_batch', 'tenant-a') },
          { op: 'put_binding', record: b.binding('tenant-a', 'cap:batch:a', 'cinst_missing') },
          { op: 'put_binding', record: b.binding('tenant-a', 'cap:batch:a', 'cinst_batch') },
          { op: 'provision_replica', record: b.replica('crepl_batch', 'cinst_batch', 'cver_batch', w.now() + HOUR) },
          { op: 'put_connector_type', record: b.connectorType('ctype_batch') },
          { op: 'put_connector_type', record: { id: 'not-a-type-id' } } as unknown as BatchItem,
          { op: 'report_health', id: 'crepl_batch', report: b.health(2, w.now() + HOUR, { status: 'draining' }) },
          { op: 'set_version_status', id: 'cver_batch', status: 'revoked' },
          { op: 'set_connector_type_enabled', id: 'ctype_nope', enabled: false },
          { op: 'put_admission_policy', record: b.policy('quota:batch') },
        ];
        const before = await w.store.catalogRevision();
        const result = await w.store.applyBatch(items);
        assert.deepEqual(
          result.results.map((r) => [r.index, r.outcome, 'error' in r ? r.error.code : null]),
          [
            [0, 'applied', null],
            [1, 'applied', null],
            [2, 'applied', null],
            [3, 'rejected', 'NOT_FOUND'],
            [4, 'applied', null],
            [5, 'applied', null],
            [6, 'unchanged', null],
            [7, 'rejected', 'INVALID_REQUEST'],
            [8, 'applied', null],
            [9, 'applied', null],
            [10, 'rejected', 'NOT_FOUND'],
            [11, 'applied', null],
          ],
        );
        assert.equal(result.catalog_revision, await w.store.catalogRevision());
        assert.ok(result.catalog_revision > before);
        assert.equal((await w.store.getReplica('crepl_batch'))!.status, 'draining');
        assert.equal((await w.store.getVersion('cver_batch'))!.status, 'revoked');
      }));

    it('[batch-items] between 1 and max_batch_items items', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'bsize' });
        const before = await snapshot(w, [f]);
        await rejectsWith(w.store.applyBatch([]), 'INVALID_REQUEST');
        const tooMany = Array.from({ length: w.store.limits.max_batch_items + 1 }, (_, i) => ({
          op: 'put_connector_type' as const,
          record: b.connectorType(`ctype_bsize_${i}`),
        }));
        await rejectsWith(w.store.applyBatch(tooMany), 'INVALID_REQUEST');
        assert.deepEqual(await snapshot(w, [f]), before);
      }));
  });
}
