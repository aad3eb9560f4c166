// The database's own guards on the rows that every resolve and settlement
// writes: a replica row never holds more units than its capacity or fewer
// than none, nor an unknown status, an admission counter never goes below
// zero or names an unknown scope kind, and a route's last settlement is one
// the contract names, whatever statement tries ([admission-never-overbooked],
// [route-contention]). A guard on one column is its column's domain, the
// one that joins two columns a table constraint (migration 0019); each
// condition is tried here on its own, on insert and on update. The peer
// fields an assignment embeds are cut from the provisioned record when the
// replica is inserted and stay as they were through its counter updates.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { b, HOUR } from '../../test/behaviour/world.ts';
import { openPostgresStore } from '../index.ts';
import { postgresTestDatabases, withClient } from './test-database.ts';

const databases = postgresTestDatabases();
const CHECK_VIOLATION = '23514';

async function refused(c: pg.Client, statement: string): Promise<void> {
  await c.query('SAVEPOINT attempt');
  await assert.rejects(c.query(statement), (err: { code?: string }) => err.code === CHECK_VIOLATION, statement);
  await c.query('ROLLBACK TO SAVEPOINT attempt');
}

test('replica rows and admission counters that break an invariant are refused by the database', async (t) => {
  const db = await databases.create();
  const store = await openPostgresStore({ url: db.url, migrate: false });
  t.after(() => store.close());
  const version = b.version('cver_guard', 'ctype_guard', [b.capability('cap:guard')]);
  await store.putConnectorType(b.connectorType('ctype_guard'));
  await store.admitVersion(version);
  await store.putInstance(b.instance('cinst_guard', 'ctype_guard', version.id, 'tenant-a'));
  const replica = b.replica('crepl_guard', 'cinst_guard', version.id, Date.now() + HOUR, { capacity: 2 });
  await store.provisionReplica(replica);

  await withClient(db.url, async (c) => {
    const peer = async () =>
      JSON.parse(
        (await c.query<{ p: string }>(`SELECT '{' || assignment_peer || '}' AS p FROM connector_replicas WHERE replica_id = 'crepl_guard'`))
          .rows[0]!.p,
      ) as unknown;
    const expected = {
      endpoint: replica.endpoint,
      peer_principal_id: replica.peer_principal_id,
      peer_principal_kind: replica.peer_principal_kind,
      peer_did: replica.peer_did,
      trust_domain: replica.trust_domain,
      transport_profile: replica.transport_profile,
      topology: replica.topology,
    };
    assert.deepEqual(await peer(), expected, 'the peer fields, cut from the provisioned record');

    await c.query('BEGIN');
    const replicaRow = (set: string) => `UPDATE connector_replicas SET ${set} WHERE replica_id = 'crepl_guard'`;
    await c.query(replicaRow('active_assignments = 2'));
    await refused(c, replicaRow('active_assignments = 3'));
    await refused(c, replicaRow('active_assignments = -1'));
    await refused(c, replicaRow(`status = 'gone'`));
    await refused(c, replicaRow('capacity = 0'));
    await refused(c, replicaRow('health_revision = -1'));
    await refused(c, replicaRow('consecutive_failures = -1'));
    await refused(c, replicaRow('tiebreak_hash = 4294967296'));
    assert.deepEqual(await peer(), expected, 'a counter update leaves the peer fields as they were');

    const counter = (kind: string, active: number) =>
      `INSERT INTO admission_counters (scope_kind, scope_key, active) VALUES ('${kind}', 'k', ${active})`;
    await c.query(counter('tenant', 1));
    await refused(c, counter('binding', -1));
    await refused(c, counter('region', 1));
    await refused(c, `UPDATE admission_counters SET active = active - 2 WHERE scope_kind = 'tenant'`);
    await refused(c, `UPDATE admission_counters SET scope_kind = 'region' WHERE scope_kind = 'tenant'`);

    const route = (settlement: string) =>
      `INSERT INTO route_assignments (action_id, tenant_id, capability_id, replica_id, version_id, fence_token, reserved,
         last_settlement, reservation_scopes, assignment, assigned_at_ms)
       VALUES ('act_guard', 'tenant-a', 'cap:guard', 'crepl_guard', '${version.id}', 'fence_guard', false, ${settlement}, '[]', '{}', 0)`;
    await refused(c, route(`'forgotten'`));
    await c.query(route(`'completed'`));
    await refused(c, `UPDATE route_assignments SET last_settlement = 'forgotten' WHERE action_id = 'act_guard'`);
    await c.query('ROLLBACK');
  });
});
