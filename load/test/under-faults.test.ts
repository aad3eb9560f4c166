// `load --nemesis` judges: the reference, through a proxy that resets
// requests and drops answers, passes on its audit whatever its latencies
// did, and the report counts the faults, the indeterminate operations and
// the recovery times; a registry that overbooks still fails through the
// audit under the same faults. Latency thresholds and phase checks under
// faults are reported, never judged; audited invariants always are, after a
// phase cut at its budget too.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DEFAULT_SCHEDULE } from '../../certify/nemesis/nemesis.ts';
import type { NemesisRequest } from '../../certify/nemesis/open-nemesis.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { openDefectiveStore } from '../../reference/defects/defective.ts';
import { writeLoadReport } from '../../reports/load/write-load-report.ts';
import { runLoadUnderFaults } from '../../certify/nemesis/load-under-faults.ts';
import { judgeUnderFaults, type JudgedReport } from '../runner/judge-under-faults.ts';
import type { AuditResult, InvariantId } from '../runner/audit.ts';
import type { LoadEnvironment } from '../runner/environment.ts';
import { parseJournal } from '../runner/journal.ts';
import { buildLoadReport, type EngineSummary } from '../runner/load-report.ts';
import type { NemesisFigures } from '../../certify/nemesis/nemesis-summary.ts';
import { startFront } from './front.ts';
import { OVERBOOKING_SETS, startTarget, type InProcessTarget } from './in-process-target.ts';

const NEMESIS: NemesisRequest = {
  kinds: ['proxy'],
  schedule: { ...DEFAULT_SCHEDULE, faultMs: 400, quietMs: 50, maxDurationMs: 60_000 },
  seed: 9,
  proxyFaults: { latencyMs: [0, 30], resetBeforeForward: 0.1, loseResponse: 0.2 },
};

function underFaults(target: InProcessTarget, sets: string[], phases = ['concurrent_routes'], url = target.url) {
  return runLoadUnderFaults(
    {
      target: url,
      keyPath: target.keyPath,
      profile: 'smoke',
      engine: 'node',
      outDir: join(target.dir, 'report'),
      quiet: true,
      writeReport: writeLoadReport,
      sets,
      phases,
    },
    NEMESIS,
    () => {},
  );
}

/**
 * A load run under faults whose retry_rotation phase is cut at its budget with
 * a resolve in flight: the registry reserves for the phase's fresh action and
 * the front holds the first such answer until the test ends (the runner's own
 * resolve of the action before the audit passes), so the flow never learns the
 * route, nor settles the pinned one it resolved again just before. The cut
 * comes from the hold, not from a slow phase; what must fit in the 5 s budget
 * is only the phase's earlier steps, which four retries keep to a few short
 * waves even when faults make them retry.
 */
async function cutWithResolveInFlight(target: InProcessTarget, sets: string[]) {
  let held = 0;
  const front = await startFront(target.url, (req, body) =>
    req.method === 'POST' && req.url === '/v1/routes' && body.includes('-rotation-') && held++ === 0 ? { holdMs: 120_000 } : null,
  );
  try {
    const outcome = await underFaults(
      target,
      [...sets, 'retry_rotation.retries=4', 'retry_rotation.budget_s=5'],
      ['concurrent_routes', 'retry_rotation'],
      front.url,
    );
    return { outcome, report: outcome.report as JudgedReport, held };
  } finally {
    await front.close();
  }
}

const BASELINE = ['reservations_released', 'replicas_at_baseline', 'counters_at_baseline'];
// The burst's routes are what reservations_released reads back; on a loaded machine, with faults delaying the answers,
// the smoke profile's 5 s budget can cut the burst before any route is journaled, which leaves that invariant nothing to check.
const REFERENCE_SETS = ['concurrent_routes.routes=64', 'concurrent_routes.budget_s=20'];

const FIGURES: NemesisFigures = {
  faults: 3,
  by_fault: { proxy: 3 },
  recovery_ms_max: 40,
  recovery_ms_median: 10,
  forwarded: 100,
  reset_before_forward: 5,
  lost_after_forward: 9,
};

/** A finished run's report: a latency threshold crossed, a phase check a fault failed, and the audit as given. */
function reportWith(violated: InvariantId[], cut = false) {
  const phases = [{ name: 'concurrent_routes', checks_ok: false, checks: { passes: 7, fails: 1 }, latency_ms: null, requests: 130 }];
  const summary: EngineSummary = {
    format: 'fleetproof-load-summary/v1',
    run_id: 'r',
    target: 'http://127.0.0.1:1',
    dataset: {},
    checks: [],
    test_run_duration_ms: 1,
    phases,
    thresholds_passed: false,
    profile: { name: 'smoke', format: 'f', duration_s: 4, phases: [{ name: 'concurrent_routes', budget_s: 5 }] },
    thresholds: [
      {
        id: 'p99',
        label: 'resolve p99',
        metric: 'http_req_duration',
        expression: 'p(99)<250',
        unit: 'ms',
        ok: false,
        value: 900,
        margin: -650,
      },
    ],
  };
  const ids: InvariantId[] = ['routes_pinned', 'replicas_at_baseline', 'never_over_capacity'];
  const audit: AuditResult = {
    ok: violated.length === 0,
    errors: [],
    unread: 0,
    invariants: ids.map((id) => ({
      id,
      description: id,
      ok: !violated.includes(id),
      checked: 5,
      violations: violated.includes(id) ? 1 : 0,
      examples: [],
    })),
  };
  const timings = cut
    ? ''
    : `fleetproof-journal ${JSON.stringify({ k: 'phase', phase: 'concurrent_routes', started: 0, ms: 50, completed: true })}`;
  const environment: LoadEnvironment = {
    harness: { name: 'fleetproof', version: '0', commit: null, dirty: null },
    engine: { name: 'node-runner', version: '0' },
    target: { url: 'x', version: null },
    machine: { cpu_model: 'x', cpus: 1, memory_bytes: 1, platform: 'x', node: 'x' },
  };
  return buildLoadReport({
    summary,
    journal: parseJournal(timings),
    audit,
    environment,
    engineExitCode: 0,
    engineError: null,
    runId: 'r',
    profile: 'smoke',
    overrides: [],
    dataset: {},
    startedAt: new Date(),
    finishedAt: new Date(),
    retirement: null,
  });
}

// Each load run mostly waits out its phases and faults: side by side, the file takes about as long as its longest run.
describe('load runs under faults', { concurrency: true }, () => {
  test('the reference passes a load run under faults on its audit, and the report states the faults', async (t) => {
    const target = await startTarget(new MemoryStore());
    t.after(() => target.close());
    const outcome = await underFaults(target, REFERENCE_SETS);
    const report = outcome.report as JudgedReport;
    assert.equal(outcome.exitCode, 0, report.reasons.join('; '));
    assert.ok(report.faults.faults > 0, 'no fault fell inside the load');
    assert.ok(report.faults.lost_after_forward + report.faults.reset_before_forward > 0, 'the proxy disturbed nothing');
    assert.ok(report.faults.recovery_ms_max !== null);
    assert.equal(typeof report.faults.indeterminate_ops, 'number');
    assert.ok(report.audit!.invariants.every((i) => i.ok && i.checked > 0));
    // The rewritten report pages carry the faults, not only summary.json.
    const [html, md] = await Promise.all(['report.html', 'report.md'].map((f) => readFile(join(outcome.outDir!, f), 'utf8')));
    assert.match(html!, /<h2>Faults<\/h2>[\s\S]*<figure class="chart" role="img" aria-label="[^"]*faults shaded[^"]*">[\s\S]*?<svg /);
    assert.match(md!, new RegExp(`^\\| proxy \\| ${report.faults.by_fault['proxy']} \\|$`, 'm'));
    assert.ok(
      report.faults.bands.length === report.faults.faults && report.faults.traffic.length > 0,
      'the timeline has its faults and traffic',
    );
  });

  test('a registry that overbooks fails the load run under faults through its audit', async (t) => {
    const target = await startTarget(await openDefectiveStore('capacity-outside-lock', 'memory'));
    t.after(() => target.close());
    const outcome = await underFaults(target, OVERBOOKING_SETS);
    assert.equal(outcome.exitCode, 1, outcome.report?.reasons.join('; '));
    assert.ok(outcome.report!.reasons.some((r) => r.startsWith('audit: ')));
  });

  test('under faults, a phase cut at its budget with a resolve in flight: the runner settles the journaled action and the audit judges the baseline', async (t) => {
    const target = await startTarget(new MemoryStore());
    t.after(() => target.close());
    const { outcome, report, held } = await cutWithResolveInFlight(target, REFERENCE_SETS);
    assert.ok(held > 0, 'no resolve was held in flight');
    assert.ok(
      report.faults.not_judged.some((r) => /^phase retry_rotation: interrupted/.test(r)),
      `the phase was not cut: ${report.faults.not_judged.join('; ')}`,
    );
    assert.ok(!report.faults.not_judged.some((r) => /^phase concurrent_routes: interrupted/.test(r)), 'the burst was cut');
    assert.deepEqual(report.could_not_judge, []);
    assert.equal(outcome.exitCode, 0, report.reasons.join('; '));
    const baseline = report.audit!.invariants.filter((i) => BASELINE.includes(i.id));
    assert.ok(baseline.length > 0 && baseline.every((i) => i.ok && i.checked > 0), JSON.stringify(baseline));
  });

  test('under faults, a phase cut at its budget still fails the overbooking store, judged, not could-not-judge', async (t) => {
    const target = await startTarget(await openDefectiveStore('capacity-outside-lock', 'memory'));
    t.after(() => target.close());
    const { outcome, report, held } = await cutWithResolveInFlight(target, OVERBOOKING_SETS);
    assert.ok(held > 0, 'no resolve was held in flight');
    assert.equal(outcome.exitCode, 1, report.reasons.join('; '));
    assert.deepEqual(report.could_not_judge, []);
    assert.ok(report.reasons.some((r) => r.startsWith('audit: ')));
  });

  test('under faults, a crossed latency threshold and a failed phase check are measured, not judged', () => {
    const judged = judgeUnderFaults(reportWith([]), FIGURES, 'R', 2);
    assert.deepEqual([judged.verdict, judged.reasons], ['pass', []]);
    assert.ok(judged.faults.not_judged.some((r) => r.startsWith('threshold resolve p99')));
    assert.ok(judged.faults.not_judged.some((r) => /checks failed/.test(r)));
    assert.equal(judged.faults.indeterminate_ops, 2);
  });

  test('under faults, an audited violation still fails, a phase cut at its budget included; the cut alone is measured', () => {
    assert.equal(judgeUnderFaults(reportWith(['replicas_at_baseline']), FIGURES, 'R', 0).verdict, 'fail');
    assert.equal(judgeUnderFaults(reportWith(['never_over_capacity'], true), FIGURES, 'R', 0).verdict, 'fail');
    // The flows journal every action before its resolve leaves, so what a cut left held was settled: the baseline judges.
    assert.equal(judgeUnderFaults(reportWith(['replicas_at_baseline'], true), FIGURES, 'R', 0).verdict, 'fail');
    const cut = judgeUnderFaults(reportWith([], true), FIGURES, 'R', 0);
    assert.equal(cut.verdict, 'pass', cut.reasons.join('; '));
    assert.ok(cut.faults.not_judged.some((r) => /interrupted/.test(r)));
    assert.equal(
      judgeUnderFaults(reportWith([]), { ...FIGURES, faults: 0 }, 'R', 0).verdict,
      'could-not-judge',
      'no fault fell: nothing was judged under faults',
    );
  });

  test('under faults, a concurrent_routes phase cut before it reads a replica still fails the overbooking store: what its routes held at once is counted before they are settled', async (t) => {
    const target = await startTarget(await openDefectiveStore('capacity-outside-lock', 'memory'));
    t.after(() => target.close());
    // The burst's first answer is held until the test ends: the flow never gets past the burst, so the phase is cut
    // at its budget before it reads any replica, and under faults a cut judges nothing.
    let held = 0;
    const front = await startFront(target.url, (req, body) =>
      req.method === 'POST' && req.url === '/v1/routes' && body.includes('-routes-') && held++ === 0 ? { holdMs: 120_000 } : null,
    );
    t.after(() => front.close());
    const sets = [...OVERBOOKING_SETS.filter((s) => !s.startsWith('concurrent_routes.budget_s=')), 'concurrent_routes.budget_s=5'];
    const outcome = await underFaults(target, sets, ['concurrent_routes'], front.url);
    const report = outcome.report as JudgedReport;
    assert.ok(held > 0, 'no resolve was held in flight');
    assert.ok(
      report.faults.not_judged.some((r) => /^phase concurrent_routes: interrupted/.test(r)),
      `the phase was not cut: ${report.faults.not_judged.join('; ')}`,
    );
    assert.equal(outcome.exitCode, 1, report.reasons.join('; '));
    const capacity = report.audit!.invariants.find((i) => i.id === 'never_over_capacity')!;
    assert.ok(!capacity.ok && capacity.examples.some((e) => /before the runner settled them/.test(e)), JSON.stringify(capacity));
  });
});
