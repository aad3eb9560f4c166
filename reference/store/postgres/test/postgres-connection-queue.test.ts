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
import { ManualClock } from '../../../domain/time.ts';
import { World } from '../../test/behaviour/world.ts';
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

test('resolves that could only wait for one replica wait for their turn in the store, not on a connection', async (t) => {
  // The wait outlasts another tenant's resolve on a loaded machine: the queued resolve is still waiting when the next is refused.
  const { store, db } = await databases.openStore({ dataPoolSize: 2, connectionQueue: { size: 1, waitMs: 5_000 } });
  t.after(() => store.close());
  // One replica each, leased from the store's own (real) clock.
  const w = new World(store, new ManualClock(Date.now()));
  const hotFleet = await w.fleet({ name: 'hot', tenantId: 'tenant-a', capacity: 100 });
  const calmFleet = await w.fleet({ name: 'calm', tenantId: 'tenant-b', capacity: 100 });
  const [hot, hotCapability] = [hotFleet.replicas[0]!.id, hotFleet.capabilityIds[0]!];
  // The first route finds its replica alone: the next ones of tenant-a and its capability take turns.
  await store.resolve('tenant-a', { action_id: 'act-hot-0', capability_id: hotCapability });
  const holder = new pg.Client(db.url);
  await holder.connect();
  t.after(() => holder.end());
  await holder.query('BEGIN');
  await holder.query('SELECT 1 FROM connector_replicas WHERE replica_id = $1 FOR UPDATE', [hot]);
  // One resolve waits for the replica's row on the pool's first connection…
  const first = store.resolve('tenant-a', { action_id: 'act-hot-1', capability_id: hotCapability });
  await lockWaiters(holder, 1);
  // …the next waits for its turn, leaving the second connection free…
  const queued = store.resolve('tenant-a', { action_id: 'act-hot-2', capability_id: hotCapability });
  const calm = await store.resolve('tenant-b', { action_id: 'act-calm', capability_id: calmFleet.capabilityIds[0]! });
  assert.equal(calm.assignment.replica_id, calmFleet.replicas[0]!.id, 'another tenant is served meanwhile');
  // …and the turns are bounded like the queue for a connection.
  await assert.rejects(
    store.resolve('tenant-a', { action_id: 'act-hot-3', capability_id: hotCapability }),
    overload(/already wait for their turn/),
  );
  await assert.rejects(queued, overload(/no turn came in time/));
  await holder.query('COMMIT');
  assert.equal((await first).assignment.replica_id, hot);
  assert.equal(await store.route('tenant-a', 'act-hot-2'), null, 'a refused turn routed nothing');
  assert.equal((await store.resolve('tenant-a', { action_id: 'act-hot-4', capability_id: hotCapability })).assignment.replica_id, hot);
  assert.equal((await store.getReplica(hot))!.active_assignments, 3);
});
