// The whole conformance suite against the reference registry on the
// PostgreSQL store: a fresh database on the server PG_URL names (npm test
// starts an embedded one when PG_URL is unset, so in CI it always runs).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runConformance } from '../runner/run.ts';
import { startReferenceTarget } from './reference-target.ts';

const skip = process.env['PG_URL']
  ? false
  : 'PG_URL is not set: run through `npm test`, which starts an embedded PostgreSQL and exports PG_URL';

describe('conformance self-check: the reference on the PostgreSQL store', { skip }, async () => {
  const { postgresTestDatabases } = await import('../../reference/store/postgres/test/test-database.ts');
  const databases = postgresTestDatabases();

  it('qualifies: every case passes and its data is retired', async () => {
    const { store } = await databases.openStore();
    const target = await startReferenceTarget({ store });
    try {
      const started = Date.now();
      const outcome = await runConformance({ config: target.config(), signingKey: target.key, writeReports: false });
      const result = outcome.result!;
      assert.ok(result, outcome.error);
      const problems = result.cases.filter((c) => c.status !== 'pass').map((c) => `${c.status} ${c.id}: ${c.message}`);
      assert.deepEqual(problems, []);
      assert.equal(outcome.exitCode, 0);
      assert.equal(result.retirement.status, 'retired', JSON.stringify(result.retirement.failures));
      console.log(`conformance self-check (postgres): ${result.cases.length} cases in ${Date.now() - started} ms`);
    } finally {
      await target.close();
    }
  });
});
