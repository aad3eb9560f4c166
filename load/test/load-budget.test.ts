// The load stage runs under a budget: an engine still running when it is
// spent is stopped (real k6 interrupted as by Ctrl-C, and gone before the
// stage ends), and the run could not judge (exit 2), naming the stage and
// the phases it had not finished, never passing on what it did not run.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { writeLoadReport } from '../../reports/load/write-load-report.ts';
import { loadBudgetMs } from '../runner/load-budget.ts';
import { runLoad } from '../runner/run-load.ts';
import { loadScaleContract, resolveProfile } from '../runner/scale-contract.ts';
import { startTarget } from './in-process-target.ts';
import { k6ForTests } from './k6-for-tests.ts';

const k6 = k6ForTests();

/** The commands of this process's children (`ps` among them, so the list is never empty and ps exits 0). */
const children = (): string[] =>
  execFileSync('ps', ['-o', 'comm=', '--ppid', String(process.pid)], { encoding: 'utf8', timeout: 10_000 })
    .split('\n')
    .filter((c) => c.trim() !== '');

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

test('under k6, a load stage out of its budget interrupts k6 and could not judge', { skip: k6.skip }, async (t) => {
  k6.version();
  const target = await startTarget(new MemoryStore());
  t.after(() => target.close());
  // Long enough for k6 to be running its phases, far short of the smoke profile's.
  const budgetMs = 6_000;
  const outcome = await runLoad({
    target: target.url,
    keyPath: target.keyPath,
    profile: 'smoke',
    engine: 'k6',
    quiet: true,
    budgetMs,
    outDir: join(target.dir, 'report'),
    writeReport: writeLoadReport,
  });
  assert.equal(outcome.exitCode, 2, outcome.message);
  const report = outcome.report!;
  assert.notEqual(report.verdict, 'pass');
  // k6 ran and was interrupted: not refused at its start (127 when it could not be spawned), not finished.
  assert.ok(![0, 127].includes(report.engine_exit_code), `k6 exited with ${report.engine_exit_code}`);
  assert.match(
    report.reasons.join('\n'),
    /the load stage ran out of its budget of 6 s \(--budget load=DURATION\); outstanding: .*sustained_routes/,
  );
  assert.deepEqual(
    children().filter((c) => c.includes('k6')),
    [],
    'k6 is gone when the stage ends',
  );
});

test('the default load budget covers every phase budget of the profile twice over', () => {
  const profile = resolveProfile(loadScaleContract(), 'smoke');
  const phasesMs = profile.phases.reduce((n, p) => n + (p.budget_s ?? 0) * 1000, 0) + (profile.duration_s ?? 0) * 1000;
  assert.ok(loadBudgetMs(profile) >= 2 * phasesMs, `${loadBudgetMs(profile)} ms for ${phasesMs} ms of phases`);
});
