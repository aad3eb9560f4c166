// [failure-overload]: requests beyond the data pool's connections wait in a
// bounded queue; the one that finds it full, and the one whose wait runs
// out, get STORAGE_UNAVAILABLE with retry guidance, and the store serves
// again once a connection is free. A table lock held from outside keeps the
// pool's only connection busy, so nothing here depends on timing.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import pg from 'pg';
import { RegistryError } from '../../../../contract/registry-error.ts';
import { OVERLOAD_RETRY_AFTER_MS } from '../connection-queue.ts';
import { postgresTestDatabases } from './test-database.ts';

const databases = postgresTestDatabases();

/** The overload answer, for the given reason. */
const overload = (why: RegExp) => (err: unknown) => {
  assert.ok(RegistryError.is(err), String(err));
  assert.equal(err.code, 'STORAGE_UNAVAILABLE');
  assert.equal(err.retryAfterMs, OVERLOAD_RETRY_AFTER_MS);
  assert.match(err.message, why);
  return true;
};

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
