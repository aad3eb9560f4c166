// A report directory used again holds only the new run's outputs: the
// journal the audit reads names this run's routes alone, whatever the
// engine does with a file already there (k6 appends its console output).
// Two runs against two registries into one directory: the second audits
// only its own routes, which its registry holds, and qualifies.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { writeLoadReport } from '../../reports/load/write-load-report.ts';
import { runLoad } from '../runner/run-load.ts';
import { startTarget, type InProcessTarget } from './in-process-target.ts';
import { k6ForTests } from './k6-for-tests.ts';

const k6 = k6ForTests();

async function routesRun(target: InProcessTarget, engine: 'k6' | 'node', outDir: string, runId: string) {
  return runLoad({
    target: target.url,
    keyPath: target.keyPath,
    profile: 'smoke',
    phases: ['concurrent_routes'],
    engine,
    quiet: true,
    runId,
    outDir,
    writeReport: writeLoadReport,
  });
}

for (const engine of ['k6', 'node'] as const) {
  test(
    `under ${engine === 'k6' ? 'k6' : 'the Node runner'}, a second run into the same report directory audits only its own routes`,
    { skip: engine === 'k6' ? k6.skip : false },
    async (t) => {
      if (engine === 'k6') k6.version();
      const first = await startTarget(new MemoryStore());
      t.after(() => first.close());
      const outDir = join(first.dir, 'report');
      const before = await routesRun(first, engine, outDir, 'fp20261207t000001aaaaaaa1');
      assert.equal(before.exitCode, 0, before.message);

      const second = await startTarget(new MemoryStore());
      t.after(() => second.close());
      const after = await routesRun(second, engine, outDir, 'fp20261207t000002aaaaaaa2');
      assert.equal(after.exitCode, 0, after.message);
      const audit = after.report!.audit!;
      assert.ok(audit.ok, JSON.stringify(audit.invariants.filter((i) => !i.ok)));
      const journal = await readFile(join(outDir, 'journal.ndjson'), 'utf8');
      assert.match(journal, /fp20261207t000002aaaaaaa2/);
      assert.doesNotMatch(journal, /fp20261207t000001aaaaaaa1/, "the first run's journal lines are gone");
    },
  );
}
