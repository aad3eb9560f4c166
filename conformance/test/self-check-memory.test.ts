// The whole conformance suite against the reference registry on the memory
// store, started in-process: every case must pass, the run's data must be
// retired, the result must match its schema, and the run must finish in
// under 60 seconds (the speed the suite promises on this machine).
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { findCaseFiles } from '../runner/load-cases.ts';
import { runConformance } from '../runner/run.ts';
import { startReferenceTarget } from './reference-target.ts';
import { resultSchemaProblems } from './result-schema.ts';

const out = await mkdtemp(join(tmpdir(), 'fleetproof-selfcheck-memory-'));
after(() => rm(out, { recursive: true, force: true }));

describe('conformance self-check: the reference on the memory store', () => {
  it('qualifies: every case passes, its data is retired, in under 60 s', async () => {
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
      assert.ok(wallMs < 60_000, `the suite took ${wallMs} ms against the memory store`);
    } finally {
      await target.close();
    }
  });
});
