// Invariants every test can check directly in the database: each replica's
// active count equals its reserved routes, and each admission counter equals
// the number of reserved routes holding its scope ([admission-never-overbooked],
// [settle-release-once], [lease-expiry-effect]).
import assert from 'node:assert/strict';
import pg from 'pg';

export async function assertReconciled(url: string): Promise<void> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    const replicas = await client.query(`
      SELECT r.replica_id, r.active_assignments, count(a.action_id)::integer AS reserved
      FROM connector_replicas r LEFT JOIN route_assignments a ON a.replica_id = r.replica_id AND a.reserved
      GROUP BY r.replica_id, r.active_assignments
      HAVING r.active_assignments <> count(a.action_id)`);
    assert.deepEqual(replicas.rows, [], 'replica active counts differ from their reserved routes');
    const counters = await client.query(`
      WITH held AS (
        SELECT s ->> 'kind' AS kind, s ->> 'key' AS key, count(*)::integer AS n
        FROM route_assignments a, json_array_elements(a.reservation_scopes) AS s
        WHERE a.reserved GROUP BY 1, 2
      )
      SELECT coalesce(c.scope_kind, h.kind) AS kind, coalesce(c.scope_key, h.key) AS key, c.active, h.n
      FROM admission_counters c FULL JOIN held h ON c.scope_kind = h.kind AND c.scope_key = h.key
      WHERE coalesce(c.active, 0) <> coalesce(h.n, 0)`);
    assert.deepEqual(counters.rows, [], 'admission counters differ from the scopes reserved routes hold');
    const over = await client.query('SELECT replica_id FROM connector_replicas WHERE active_assignments > capacity');
    assert.deepEqual(over.rows, [], 'a replica is above its capacity');
  } finally {
    await client.end();
  }
}
