// The whole conformance suite against the reference registry on the memory
// store, started in-process: every case must pass, the run's data must be
// retired and the result must match its schema. How fast the suite runs is
// measured by `npm run bench:conform`, not asserted here.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { findCaseFiles } from '../lint/case-files.ts';
import { runConformance } from '../runner/run.ts';
import { startReferenceTarget } from './reference-target.ts';
import { resultSchemaProblems } from './result-schema.ts';

const out = await mkdtemp(join(tmpdir(), 'fleetproof-selfcheck-memory-'));
after(() => rm(out, { recursive: true, force: true }));

describe('conformance self-check: the reference on the memory store', () => {
  it('qualifies: every case passes and its data is retired', async () => {
    const target = await startReferenceTarget();
    try {
      const started = Date.now();
      const outcome = await runConformance({ config: target.config({ out }), signingKey: target.key });
      const wallMs = Date.now() - started;
      const result = outcome.result!;
      assert.ok(result, outcome.error);
      const problems = result.cases.filter((c) => c.status !== 'pass').map((c) => `${c.status} ${c.id}: ${c.message}`);
      assert.deepEqual(problems, []);
      assert.equal(outcome.exitCode, 0);
      assert.equal(result.verdict, 'qualified');
      assert.equal(result.selection.complete, true);
      assert.equal(result.cases.length, findCaseFiles().length, 'every case file ran');
      assert.deepEqual(result.retirement.failures, []);
      assert.equal(result.retirement.status, 'retired');
      assert.equal(resultSchemaProblems(JSON.parse(await readFile(join(out, 'result.json'), 'utf8'))), null);
      console.log(`conformance self-check (memory): ${result.cases.length} cases in ${wallMs} ms`);
    } finally {
      await target.close();
    }
  });
});
