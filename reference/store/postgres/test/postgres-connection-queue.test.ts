// [failure-overload]: requests beyond the data pool's connections wait in a
// bounded queue; the one that finds it full, and the one whose wait runs
// out, get STORAGE_UNAVAILABLE with retry guidance, and the store serves
// again once a connection is free. Resolves that could only wait for one
// replica's row wait for their turn in the store instead, under the same
// bound. A lock held from outside keeps a connection busy, so nothing here
// depends on timing.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import pg from 'pg';
import type { RegistryStore } from '../../registry-store.ts';
import { b } from '../../test/behaviour/world.ts';
import { overload } from './overload-answer.ts';
import { postgresTestDatabases } from './test-database.ts';

const databases = postgresTestDatabases();

/** Waits until `n` backends of the database wait for a lock. */
async function lockWaiters(client: pg.Client, n: number): Promise<void> {
  for (;;) {
    const { rows } = await client.query(
      `SELECT count(*)::integer AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (rows[0].n >= n) return;
    await sleep(20);
  }
}

test('a full queue and an expired wait are the overload answer; the store serves again afterwards', async (t) => {
  const { store, db } = await databases.openStore({ dataPoolSize: 1, connectionQueue: { size: 1, waitMs: 1_000 } });
  t.after(() => store.close());
  const holder = new pg.Client(db.url);
  await holder.connect();
  t.after(() => holder.end());
  await holder.query('BEGIN');
  await holder.query('LOCK TABLE connector_replicas IN ACCESS EXCLUSIVE MODE');
  // The pool's one connection waits behind the lock…
  const first = store.getReplica('crepl_first');
  await lockWaiters(holder, 1);
  // …the next request waits in the queue, and the one after finds it full.
  const queued = store.getReplica('crepl_queued');
  await assert.rejects(store.getReplica('crepl_refused'), overload(/already wait for a connection/), 'the queue holds one request');
  await assert.rejects(queued, overload(/no connection became free in time/), 'the queued request gave up when its wait ran out');
  await holder.query('COMMIT');
  assert.equal(await first, null, 'the request holding the connection finished normally');
  assert.equal(await store.getReplica('crepl_after'), null, 'the store serves again');
});

/** Tenant `tenant` bound to capability `cap:<name>` through one instance with one replica; returns the replica id. */
async function loneReplica(store: RegistryStore, name: string, tenant: string): Promise<string> {
  const version = b.version(`cver_${name}`, `ctype_${name}`, [b.capability(`cap:${name}`)]);
  const { results } = await store.applyBatch([
    { op: 'put_connector_type', record: b.connectorType(`ctype_${name}`) },
    { op: 'admit_version', record: version },
    { op: 'put_instance', record: b.instance(`cinst_${name}`, `ctype_${name}`, version.id, tenant) },
    { op: 'put_binding', record: b.binding(tenant, `cap:${name}`, `cinst_${name}`) },
    { op: 'provision_replica', record: b.replica(`crepl_${name}`, `cinst_${name}`, version.id, Date.now() + 3_600_000, { capacity: 100 }) },
  ]);
  assert.ok(
    results.every((r) => r.outcome === 'applied'),
    JSON.stringify(results),
  );
  return `crepl_${name}`;
}

test('resolves that could only wait for one replica wait for their turn in the store, not on a connection', async (t) => {
  const { store, db } = await databases.openStore({ dataPoolSize: 2, connectionQueue: { size: 1, waitMs: 1_000 } });
  t.after(() => store.close());
  const hot = await loneReplica(store, 'hot', 'tenant-a');
  await loneReplica(store, 'calm', 'tenant-b');
  // The first route finds its replica alone: the next ones of tenant-a and cap:hot take turns.
  await store.resolve('tenant-a', { action_id: 'act-hot-0', capability_id: 'cap:hot' });
  const holder = new pg.Client(db.url);
  await holder.connect();
  t.after(() => holder.end());
  await holder.query('BEGIN');
  await holder.query('SELECT 1 FROM connector_replicas WHERE replica_id = $1 FOR UPDATE', [hot]);
  // One resolve waits for the replica's row on the pool's first connection…
  const first = store.resolve('tenant-a', { action_id: 'act-hot-1', capability_id: 'cap:hot' });
  await lockWaiters(holder, 1);
  // …the next waits for its turn, leaving the second connection free…
  const queued = store.resolve('tenant-a', { action_id: 'act-hot-2', capability_id: 'cap:hot' });
  const calm = await store.resolve('tenant-b', { action_id: 'act-calm', capability_id: 'cap:calm' });
  assert.equal(calm.assignment.replica_id, 'crepl_calm', 'another tenant is served meanwhile');
  // …and the turns are bounded like the queue for a connection.
  await assert.rejects(
    store.resolve('tenant-a', { action_id: 'act-hot-3', capability_id: 'cap:hot' }),
    overload(/already wait for their turn/),
  );
  await assert.rejects(queued, overload(/no turn came in time/));
  await holder.query('COMMIT');
  assert.equal((await first).assignment.replica_id, hot);
  assert.equal(await store.route('tenant-a', 'act-hot-2'), null, 'a refused turn routed nothing');
  assert.equal((await store.resolve('tenant-a', { action_id: 'act-hot-4', capability_id: 'cap:hot' })).assignment.replica_id, hot);
  assert.equal((await store.getReplica(hot))!.active_assignments, 3);
});
