// The smoke profile end to end on the Node runner against the reference on
// the PostgreSQL store (PG_URL, which npm test provides). The profile's
// thresholds judge correctness, not speed, so the verdict holds on a busy
// machine as on a quiet one.
import { test } from 'node:test';
import { openPostgresStore } from '../../reference/store/postgres/index.ts';
import { postgresTestDatabases } from '../../reference/store/postgres/test/test-database.ts';
import { assertSmokeQualified, runSmokeToAVerdict, startTarget } from './in-process-target.ts';

const databases = postgresTestDatabases();

test('the smoke profile passes against the reference on the PostgreSQL store, audit included', async (t) => {
  const db = await databases.create();
  const target = await startTarget(await openPostgresStore({ url: db.url, migrate: false }));
  t.after(() => target.close());
  assertSmokeQualified(await runSmokeToAVerdict(target));
});
