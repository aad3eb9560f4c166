// Storage faults ([failure-storage]): backends killed mid-transaction and the
// server stopped and started during concurrent routing. Every failed call
// must be STORAGE_UNAVAILABLE, every reported success must be committed, and
// afterwards no partial route, reservation or settlement may be visible:
// replica counts and admission counters reconcile exactly with the routes
// that hold reservations.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { RouteView } from '../../../../contract/records.ts';
import { RegistryError } from '../../../../contract/registry-error.ts';
import type { RegistryStore } from '../../registry-store.ts';
import { b } from '../../test/behaviour/world.ts';
import { openPostgresStore } from '../index.ts';
import { startEmbeddedPostgres } from '../embedded-server.ts';
import { migrateRegistrySchema } from '../migrate.ts';
import { assertReconciled } from './test-invariants.ts';
import { postgresTestDatabases } from './test-database.ts';

const databases = postgresTestDatabases();
const HOUR = 3_600_000;
const POLICY = b.policy('quota:faults', {
  max_tenant_in_flight: 100_000,
  max_instance_in_flight: 100_000,
  max_tenant_retry_in_flight: 100_000,
});

async function seed(store: RegistryStore): Promise<void> {
  const version = b.version('cver_faults', 'ctype_faults', [b.capability('cap:faults')]);
  const { results } = await store.applyBatch([
    { op: 'put_admission_policy', record: POLICY },
    { op: 'put_connector_type', record: b.connectorType('ctype_faults') },
    { op: 'admit_version', record: version },
    { op: 'put_instance', record: b.instance('cinst_faults', 'ctype_faults', version.id, 'tenant-a') },
    { op: 'put_binding', record: b.binding('tenant-a', 'cap:faults', 'cinst_faults', { quota_policy_ref: POLICY.policy_ref }) },
    ...Array.from({ length: 20 }, (_, i) => ({
      op: 'provision_replica' as const,
      record: b.replica(`crepl_faults_${i}`, 'cinst_faults', version.id, Date.now() + HOUR, { capacity: 10_000 }),
    })),
  ]);
  assert.ok(results.every((r) => r.outcome === 'applied'));
}

interface Ledger {
  /** Routes whose resolve reported success, by action. */
  resolved: Map<string, RouteView>;
  /** Actions whose settle reported a release. */
  released: Set<string>;
  failures: number;
}

const newLedger = (): Ledger => ({ resolved: new Map(), released: new Set(), failures: 0 });

/**
 * Workers resolve, then settle half of their routes, until `stop` resolves; every error must be
 * STORAGE_UNAVAILABLE. The fault reads `ledger` as it goes, to last until a call has met it.
 */
async function churn(store: RegistryStore, workers: number, stop: Promise<void>, ledger = newLedger()): Promise<Ledger> {
  let done = false;
  void stop.then(() => (done = true));
  const attempt = async <T>(call: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await call();
    } catch (err) {
      assert.ok(RegistryError.is(err), `expected a RegistryError, got ${String(err)}`);
      assert.equal(err.code, 'STORAGE_UNAVAILABLE', `a storage fault surfaced as ${err.code}: ${err.message}`);
      ledger.failures++;
      await sleep(2);
      return undefined;
    }
  };
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (let n = 0; !done; n++) {
        const actionId = `act-fault-${w}-${n}`;
        const view = await attempt(() => store.resolve('tenant-a', { action_id: actionId, capability_id: 'cap:faults' }));
        if (!view) continue;
        ledger.resolved.set(actionId, view);
        if (n % 2 === 0) {
          const result = await attempt(() =>
            store.settle('tenant-a', actionId, view.assignment, n % 4 === 0 ? 'completed' : 'outcome_unknown'),
          );
          if (result?.released) ledger.released.add(actionId);
        }
      }
    }),
  );
  return ledger;
}

/** Reported successes are committed, and counts reconcile with reserved routes. */
async function assertConsistent(url: string, store: RegistryStore, ledger: Ledger): Promise<void> {
  for (const [actionId, view] of ledger.resolved) {
    const stored = await store.route('tenant-a', actionId);
    assert.ok(stored, `resolve of ${actionId} was reported but is not stored`);
    assert.deepEqual(stored.assignment, view.assignment);
    if (ledger.released.has(actionId)) assert.equal(stored.reserved, false, `settlement of ${actionId} was reported but not stored`);
  }
  await assertReconciled(url);
}

describe('postgres storage faults', () => {
  it('[failure-storage] backends terminated mid-transaction: STORAGE_UNAVAILABLE, nothing partial', async () => {
    const { store, db } = await databases.openStore({ dataPoolSize: 8 });
    try {
      await seed(store);
      const killer = new pg.Client(db.url);
      await killer.connect();
      let kills = 0;
      const ledger = newLedger();
      // Forty rounds of kills at least, and on until a call met one: on a busy machine the workers may be
      // between calls at every early kill. Bounded (about a minute) so a store that never fails still ends.
      const stop = (async () => {
        for (let i = 0; (i < 40 || ledger.failures === 0) && i < 2_400; i++) {
          await sleep(25);
          const { rowCount } = await killer.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND application_name = 'fleetproof-data'`,
            [db.name],
          );
          kills += rowCount ?? 0;
        }
      })();
      try {
        await churn(store, 8, stop, ledger);
      } finally {
        // The killer's loop ends on its own; its connection would hold the file open.
        await stop.catch(() => {});
        await killer.end();
      }
      assert.ok(kills > 0 && ledger.failures > 0, `the fault never hit (${kills} kills, ${ledger.failures} failures)`);
      assert.ok(ledger.resolved.size > 0, 'no call succeeded between the faults');
      await assertConsistent(db.url, store, ledger);
      // The store recovers on fresh connections.
      await store.resolve('tenant-a', { action_id: 'act-after-kills', capability_id: 'cap:faults' });
    } finally {
      await store.close();
    }
  });

  it('[failure-storage] the server stopped and started during a concurrent run', async () => {
    const server = await startEmbeddedPostgres({ ephemeral: true });
    try {
      await migrateRegistrySchema(server.url);
      const store = await openPostgresStore({ url: server.url, migrate: false, dataPoolSize: 8, statementTimeoutMs: 5_000 });
      try {
        await seed(store);
        let downFailures = 0;
        const ledger = newLedger();
        const stop = (async () => {
          await sleep(300);
          await server.halt();
          // While the server is down every call fails as storage, never as success.
          for (let i = 0; i < 5; i++) {
            const refused = await store.resolve('tenant-a', { action_id: `act-down-${i}`, capability_id: 'cap:faults' }).then(
              () => false,
              (err) => RegistryError.is(err) && err.code === 'STORAGE_UNAVAILABLE',
            );
            if (refused) downFailures++;
          }
          // Down until a worker's call met the shutdown, however late a busy machine runs them (bounded).
          for (let i = 0; ledger.failures === 0 && i < 600; i++) await sleep(50);
          assert.equal(await store.ready(), false);
          await server.resume();
          await sleep(300);
        })();
        await churn(store, 8, stop, ledger);
        assert.equal(downFailures, 5);
        assert.ok(ledger.failures > 0, 'no in-flight call met the shutdown');
        assert.equal(await store.ready(), true);
        await assertConsistent(server.url, store, ledger);
        for (let i = 0; i < 5; i++) assert.equal(await store.route('tenant-a', `act-down-${i}`), null);
      } finally {
        await store.close();
      }
    } finally {
      await server.stop();
    }
  });
});
