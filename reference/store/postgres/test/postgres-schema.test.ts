// Migrations and the control/data role split.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { b } from '../../test/behaviour/world.ts';
import { rejectsWith } from '../../test/behaviour/expect.ts';
import { CONTROL_ROLE, DATA_ROLE, openPostgresStore } from '../index.ts';
import { migrateRegistrySchema, MIGRATIONS, SCHEMA_VERSION } from '../migrate.ts';
import { postgresTestDatabases, withClient, type TestDatabase } from './test-database.ts';

const databases = postgresTestDatabases();

/** A login user of `role` for this database, as a deployment would create one; dropped with the database. */
async function loginUrl(db: TestDatabase, role: string): Promise<string> {
  const user = `${db.name}_${role === DATA_ROLE ? 'data' : 'control'}_${randomBytes(2).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  await withClient(db.url, (c) => c.query(`CREATE ROLE ${user} LOGIN PASSWORD '${password}' IN ROLE ${role}`));
  const u = new URL(db.url);
  u.username = user;
  u.password = password;
  return u.toString();
}

describe('postgres schema and roles', () => {
  it('migrations are recorded with checksums and applying them again does nothing', async () => {
    const db = await databases.create();
    assert.deepEqual(await migrateRegistrySchema(db.url), []);
    const rows = await withClient(
      db.url,
      async (c) => (await c.query('SELECT version, name, checksum FROM schema_migrations ORDER BY version')).rows,
    );
    assert.deepEqual(
      rows,
      MIGRATIONS.map((m) => ({ version: m.version, name: m.name, checksum: m.checksum })),
    );
    assert.equal(rows.length, SCHEMA_VERSION);
  });

  it('a recorded migration whose text changed is refused', async () => {
    const db = await databases.create({ disposable: true });
    await withClient(db.url, (c) => c.query("UPDATE schema_migrations SET checksum = 'edited' WHERE version = 1"));
    await rejectsWith(migrateRegistrySchema(db.url), 'STORAGE_UNAVAILABLE');
  });

  it('concurrent first migrations of one database serialise on the advisory lock', async () => {
    const db = await databases.create({ disposable: true });
    await withClient(db.url, async (c) => {
      await c.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
    });
    const applied = await Promise.all([migrateRegistrySchema(db.url), migrateRegistrySchema(db.url), migrateRegistrySchema(db.url)]);
    assert.deepEqual(applied.map((a) => a.length).sort(), [0, 0, SCHEMA_VERSION]);
  });

  it('the data role cannot write catalog tables; the control role cannot route', async () => {
    const db = await databases.create();
    const dataUrl = await loginUrl(db, DATA_ROLE);
    const controlUrl = await loginUrl(db, CONTROL_ROLE);
    await withClient(dataUrl, async (c) => {
      await assert.rejects(
        c.query(`INSERT INTO connector_types (type_id, enabled, record) VALUES ('ctype_x', true, '{}')`),
        /permission denied/,
      );
      await assert.rejects(c.query('UPDATE catalog_revision SET revision = revision + 1'), /permission denied/);
      await assert.rejects(
        c.query(`INSERT INTO admission_policies (policy_ref, revision, enabled, max_global_in_flight, max_tenant_in_flight,
        max_connector_type_in_flight, max_instance_in_flight, max_binding_in_flight, max_tenant_retry_in_flight, circuit_failure_threshold,
        circuit_open_ms) VALUES ('q', 1, true, 1, 1, 1, 1, 1, 1, 1, 100)`),
        /permission denied/,
      );
      assert.equal((await c.query('SELECT revision FROM catalog_revision')).rows[0].revision, '0');
    });
    await withClient(controlUrl, async (c) => {
      await assert.rejects(c.query(`UPDATE connector_replicas SET active_assignments = 0`), /permission denied/);
      await assert.rejects(
        c.query(`INSERT INTO admission_counters (scope_kind, scope_key, active) VALUES ('tenant', 't', 1)`),
        /permission denied/,
      );
    });
  });

  it('a data-plane-only store holds no control pool, routes, and refuses catalog writes', async () => {
    const db = await databases.create();
    const full = await openPostgresStore({ url: db.url, migrate: false });
    const typeId = 'ctype_plane';
    const version = b.version('cver_plane', typeId, [b.capability('cap:plane')]);
    try {
      await full.putConnectorType(b.connectorType(typeId));
      await full.admitVersion(version);
      await full.putInstance(b.instance('cinst_plane', typeId, version.id, 'tenant-a'));
      await full.putBinding(b.binding('tenant-a', 'cap:plane', 'cinst_plane'));
    } finally {
      await full.close();
    }

    const store = await openPostgresStore({ dataUrl: await loginUrl(db, DATA_ROLE), dataPlaneOnly: true });
    try {
      assert.equal((store as { hasControlPlane?: boolean }).hasControlPlane, false);
      const revision = await store.catalogRevision();
      const page = await store.queryCatalog({ limit: 10 }, { tenant_id: 'tenant-a', allow_unbound: false });
      assert.equal(page.catalog_revision, revision);
      assert.deepEqual(
        page.capabilities.map((d) => d.capability.id),
        ['cap:plane'],
      );
      // Replica lifecycle and routing are data-plane work.
      await store.provisionReplica(b.replica('crepl_plane', 'cinst_plane', version.id, Date.now() + 3_600_000));
      const view = await store.resolve('tenant-a', { action_id: 'act-plane', capability_id: 'cap:plane' });
      assert.equal(view.assignment.replica_id, 'crepl_plane');
      const refused = await rejectsWith(store.putConnectorType(b.connectorType('ctype_other')), 'STORAGE_UNAVAILABLE');
      assert.match(refused.message, /control-plane/);
      const batch = store.applyBatch([{ op: 'put_connector_type', record: b.connectorType('ctype_other') }]);
      assert.match((await rejectsWith(batch, 'STORAGE_UNAVAILABLE')).message, /control-plane/);
      assert.equal(await store.catalogRevision(), revision);
    } finally {
      await store.close();
    }
  });

  it('a data-plane-only store needs exactly its schema version', async () => {
    const db = await databases.create({ disposable: true });
    await withClient(db.url, (c) => c.query(`INSERT INTO schema_migrations VALUES (${SCHEMA_VERSION + 1}, 'from_the_future', 'x', 0)`));
    const newer = openPostgresStore({ dataUrl: await loginUrl(db, DATA_ROLE), dataPlaneOnly: true });
    assert.match((await rejectsWith(newer, 'STORAGE_UNAVAILABLE')).message, /schema version/);
    await withClient(db.url, (c) => c.query(`DELETE FROM schema_migrations WHERE version >= ${SCHEMA_VERSION}`));
    const older = openPostgresStore({ dataUrl: await loginUrl(db, DATA_ROLE), dataPlaneOnly: true });
    assert.match((await rejectsWith(older, 'STORAGE_UNAVAILABLE')).message, /schema version/);
  });

  it('without a URL the store runs on an embedded server of its own, stopped by close', async () => {
    const store = await openPostgresStore();
    try {
      const typeId = 'ctype_embedded';
      assert.equal((await store.putConnectorType(b.connectorType(typeId))).outcome, 'applied');
      assert.equal((await store.getConnectorType(typeId))?.id, typeId);
      assert.equal(await store.ready(), true);
      await store.close();
      await store.close();
      assert.equal(await store.ready(), false);
    } finally {
      // Closing twice is part of what is tested; a third time stops the embedded server if an assertion did not get there.
      await store.close();
    }
  });
});
