// A store process caches each context's catalog view at the revision it was
// built, and answers a read from it after one statement that reads the
// current revision. Another process writing the catalog on the same database
// moves that revision, so no cached view, page or single capability outlives
// the write ([catalog-revision], [catalog-tenant-visibility]).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CatalogContext } from '../../../../contract/records.ts';
import { b } from '../../test/behaviour/world.ts';
import { openPostgresStore } from '../index.ts';
import { postgresTestDatabases } from './test-database.ts';

const databases = postgresTestDatabases();
const TENANT: CatalogContext = { tenant_id: 'tenant-a', allow_unbound: false };

test("a cached catalog view never outlives another process's catalog write", async (t) => {
  const db = await databases.create();
  const reader = await openPostgresStore({ url: db.url, migrate: false });
  t.after(() => reader.close());
  const writer = await openPostgresStore({ url: db.url, migrate: false });
  t.after(() => writer.close());
  const version = b.version('cver_cache', 'ctype_cache', [b.capability('cap:x'), b.capability('cap:y')]);
  await writer.putConnectorType(b.connectorType('ctype_cache'));
  await writer.admitVersion(version);
  await writer.putInstance(b.instance('cinst_cache', 'ctype_cache', version.id, 'tenant-a'));
  await writer.putBinding(b.binding('tenant-a', 'cap:x', 'cinst_cache'));

  const ids = async () => (await reader.queryCatalog({ limit: 10 }, TENANT)).capabilities.map((d) => d.capability.id);
  assert.deepEqual(await ids(), ['cap:x'], 'the view, built');
  assert.deepEqual(await ids(), ['cap:x'], 'the view, cached');
  assert.ok(await reader.getCapability('cap:x', TENANT));
  assert.equal(await reader.getCapability('cap:y', TENANT), null);

  await writer.putBinding(b.binding('tenant-a', 'cap:y', 'cinst_cache'));
  const revision = await writer.catalogRevision();
  const page = await reader.queryCatalog({ limit: 10 }, TENANT);
  assert.equal(page.catalog_revision, revision, "the page is of the writer's revision");
  assert.deepEqual(
    page.capabilities.map((d) => d.capability.id),
    ['cap:x', 'cap:y'],
  );
  assert.equal((await reader.getCapability('cap:y', TENANT))?.catalog_revision, revision);

  await writer.putBinding(b.binding('tenant-a', 'cap:x', 'cinst_cache', { enabled: false, policy_revision: 2 }));
  assert.equal(await reader.getCapability('cap:x', TENANT), null, 'a capability no longer visible is not read from the old view');
  assert.deepEqual(await ids(), ['cap:y']);
});
