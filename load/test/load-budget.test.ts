// The load stage runs under a budget: an engine still running when it is
// spent is stopped, and the run could not judge (exit 2), naming the stage
// and the phases it had not finished, never passing on what it did not run.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { writeLoadReport } from '../../reports/load/write-load-report.ts';
import { loadBudgetMs } from '../runner/load-budget.ts';
import { runLoad } from '../runner/run-load.ts';
import { loadScaleContract, resolveProfile } from '../runner/scale-contract.ts';
import { startTarget } from './in-process-target.ts';

test('a load stage out of its budget stops the engine and could not judge', async (t) => {
  const target = await startTarget(new MemoryStore());
  t.after(() => target.close());
  const outcome = await runLoad({
    target: target.url,
    keyPath: target.keyPath,
    profile: 'smoke',
    phases: ['catalog_walk'],
    engine: 'node',
    quiet: true,
    budgetMs: 1,
    outDir: join(target.dir, 'report'),
    writeReport: writeLoadReport,
  });
  assert.equal(outcome.exitCode, 2, outcome.message);
  const report = outcome.report!;
  assert.notEqual(report.verdict, 'pass');
  assert.match(
    report.reasons.join('\n'),
    /the load stage ran out of its budget of 1 ms \(--budget load=DURATION\); outstanding: .*catalog_walk/,
  );
});

test('the default load budget covers every phase budget of the profile twice over', () => {
  const profile = resolveProfile(loadScaleContract(), 'smoke');
  const phasesMs = profile.phases.reduce((n, p) => n + (p.budget_s ?? 0) * 1000, 0) + (profile.duration_s ?? 0) * 1000;
  assert.ok(loadBudgetMs(profile) >= 2 * phasesMs, `${loadBudgetMs(profile)} ms for ${phasesMs} ms of phases`);
});
