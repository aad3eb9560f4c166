// The smoke profile end to end on the Node runner against the reference on
// the PostgreSQL store (PG_URL, which npm test provides). The profile's
// thresholds judge correctness, not speed, so the verdict holds on a busy
// machine as on a quiet one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openPostgresStore } from '../../reference/store/postgres/index.ts';
import { postgresTestDatabases } from '../../reference/store/postgres/test/test-database.ts';
import { runSmokeToAVerdict, startTarget } from './in-process-target.ts';

const databases = postgresTestDatabases();

test('the smoke profile passes against the reference on the PostgreSQL store, audit included', async (t) => {
  const db = await databases.create();
  const target = await startTarget(await openPostgresStore({ url: db.url, migrate: false }));
  t.after(() => target.close());
  const outcome = await runSmokeToAVerdict(target);
  const report = outcome.report!;
  assert.deepEqual(report.reasons, []);
  assert.equal(outcome.exitCode, 0);
  assert.deepEqual(
    report.thresholds.map((x) => [x.id, x.ok, x.value]),
    [
      ['unexpected_responses', true, 0],
      ['checks', true, 1],
    ],
    'every threshold was evaluated and held',
  );
  assert.ok(
    report.phases.every((p) => p.checks_ok && p.checks.passes > 0),
    'every phase ran its checks',
  );
  assert.ok(
    report.audit!.invariants.every((i) => i.ok && i.checked > 0),
    'every invariant was checked on something',
  );
});
