// What a load run's verdict rests on: a run that did not put its load on the
// target (dropped iterations), a phase that was interrupted or made no
// requests, and reads the audit could not make are never a pass, and only
// what the audit read back (or a check that ran) fails the registry.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildLoadReport, type EngineSummary } from '../runner/load-report.ts';
import type { AuditResult } from '../runner/audit.ts';
import type { LoadEnvironment } from '../runner/environment.ts';
import { parseJournal } from '../runner/journal.ts';
import { judgeUnderFaults } from '../runner/judge-under-faults.ts';

const environment: LoadEnvironment = {
  harness: { name: 'fleetproof', version: '0', commit: null, dirty: null },
  engine: { name: 'node-runner', version: '0' },
  target: { url: 'http://127.0.0.1:1', version: null },
  machine: { cpu_model: 'x', cpus: 1, memory_bytes: 1, platform: 'x', node: 'x' },
};

const cleanAudit: AuditResult = {
  ok: true,
  invariants: [{ id: 'routes_pinned', description: 'pinned', ok: true, checked: 3, violations: 0, examples: [] }],
  errors: [],
  unread: 0,
};

type Phase = EngineSummary['phases'][number];
const phase = (name: string, over: Partial<Phase> = {}): Phase => ({
  name,
  checks_ok: true,
  checks: { passes: 2, fails: 0 },
  latency_ms: null,
  requests: 10,
  ...over,
});

function report(
  phases: Phase[],
  options: {
    timings?: string[];
    audit?: AuditResult;
    maxDropped?: number;
    engineError?: string;
    stopped?: string;
    budgetsJudgeSpeed?: boolean;
    elsewhere?: string[];
  } = {},
) {
  const summary: EngineSummary = {
    format: 'fleetproof-load-summary/v1',
    run_id: 'r',
    target: 'http://127.0.0.1:1',
    profile: {
      name: 'p',
      format: 'f',
      duration_s: 4,
      ...(options.maxDropped !== undefined ? { max_dropped_iterations: options.maxDropped } : {}),
      ...(options.budgetsJudgeSpeed !== undefined ? { budgets_judge_speed: options.budgetsJudgeSpeed } : {}),
      phases: phases.map((p) => ({ name: p.name, budget_s: 6 })),
    },
    dataset: {},
    thresholds_passed: true,
    thresholds: [],
    phases,
    checks: [],
    test_run_duration_ms: 1,
  };
  const journal = parseJournal((options.timings ?? []).join('\n'));
  const now = new Date();
  return buildLoadReport({
    summary,
    journal,
    audit: options.audit ?? cleanAudit,
    environment,
    engineExitCode: options.engineError ? 1 : 0,
    engineError: options.engineError ?? null,
    runId: 'r',
    profile: 'p',
    overrides: [],
    dataset: {},
    startedAt: now,
    finishedAt: now,
    retirement: null,
    ...(options.elsewhere ? { elsewhere: options.elsewhere } : {}),
    ...(options.stopped ? { stopped: options.stopped } : {}),
  });
}

const timing = (name: string, completed = true) =>
  `fleetproof-journal ${JSON.stringify({ k: 'phase', phase: name, started: 0, ms: 50, completed })}`;

test('a run whose phases ran, finished and were audited clean passes', () => {
  const r = report([phase('retry_storm'), phase('sustained_routes')], { timings: [timing('retry_storm')] });
  assert.deepEqual([r.verdict, r.reasons], ['pass', []]);
});

test('dropped iterations above the profile bound make the run could-not-judge, shown first', () => {
  const r = report(
    [phase('retry_storm', { checks_ok: false, checks: { passes: 1, fails: 1 } }), phase('sustained_routes', { dropped_iterations: 28 })],
    { timings: [timing('retry_storm')] },
  );
  assert.equal(r.verdict, 'could-not-judge');
  assert.match(
    r.reasons[0]!,
    /^could not judge at this rate: the load generator could not start 28 iteration\(s\) \(sustained_routes 28; the profile allows 0\)/,
  );
  assert.equal(r.phases.find((p) => p.name === 'sustained_routes')!.status, 'error');
  const tolerated = report([phase('sustained_routes', { dropped_iterations: 2 })], { maxDropped: 2 });
  assert.equal(tolerated.verdict, 'pass', 'the profile may state a bound');
});

test('a phase cut at its budget is never a pass, and its reason is shown', () => {
  const r = report([phase('retry_storm'), phase('catalog_walk')], { timings: [timing('catalog_walk')] });
  assert.equal(r.verdict, 'fail');
  assert.equal(r.phases[0]!.status, 'fail');
  assert.deepEqual(r.reasons, ['phase retry_storm: interrupted, not finished within its 6 s budget']);
});

test('a run stopped before its end (a signal, the stage budget) could not run: its cut phases are errors, never slow', () => {
  const stopped = 'the run was stopped by SIGINT before it ended; outstanding: retry_storm';
  for (const budgetsJudgeSpeed of [true, false]) {
    const idle = phase('sustained_routes', { requests: 0, checks_ok: false, checks: { passes: 0, fails: 0 } });
    const r = report([phase('catalog_walk'), phase('retry_storm'), idle, phase('sustained_catalog', { checks_ok: false })], {
      timings: [timing('seed'), timing('catalog_walk')],
      stopped,
      budgetsJudgeSpeed,
    });
    assert.equal(r.verdict, 'could-not-run');
    assert.deepEqual(r.reasons, [stopped], 'the stop is the only reason: no phase budget was missed');
    assert.deepEqual(
      r.phases.map((p) => [p.name, p.status]),
      [
        ['catalog_walk', 'pass'],
        ['retry_storm', 'error'],
        ['sustained_routes', 'error'],
        ['sustained_catalog', 'error'],
      ],
    );
  }
});

test('a part of a distributed run names the phases another part runs, and reads no cut into their absence', () => {
  const noShare = phase('retry_storm', { checks: { passes: 0, fails: 0 }, requests: 0 });
  const r = report([noShare, phase('catalog_walk')], { timings: [timing('catalog_walk')], elsewhere: ['retry_storm'] });
  assert.deepEqual(r.reasons, ['phase retry_storm: run by the other parts of this distributed run, judged when they are merged']);
  assert.deepEqual(
    r.phases.map((p) => p.name),
    ['catalog_walk'],
  );
  // A phase the part was to run, and did not finish, is still a cut.
  const cut = report([phase('retry_storm'), phase('catalog_walk')], { timings: [timing('catalog_walk')], elsewhere: [] });
  assert.deepEqual(cut.reasons, ['phase retry_storm: interrupted, not finished within its 6 s budget']);
});

test('a phase stopped by an error of its own, or without requests, is an error, not a failure', () => {
  const thrown = report([phase('retry_storm')], { timings: [timing('retry_storm', false)] });
  assert.deepEqual([thrown.verdict, thrown.phases[0]!.status], ['could-not-judge', 'error']);
  const idle = report([phase('sustained_lease_churn', { requests: 0, checks_ok: false, checks: { passes: 0, fails: 0 } })]);
  assert.deepEqual([idle.verdict, idle.phases[0]!.status], ['could-not-judge', 'error']);
  assert.match(idle.reasons[0]!, /sustained_lease_churn: made no requests/);
});

test('reads the audit could not make judge nothing; a violation it read back fails the run whatever else went wrong', () => {
  const unread: AuditResult = { ...cleanAudit, ok: false, errors: ['GET /v1/replicas/x: no answer (ECONNREFUSED)'], unread: 685 };
  const r = report([phase('sustained_routes')], { audit: unread });
  assert.equal(r.verdict, 'could-not-judge');
  assert.match(r.reasons[0]!, /^the audit could not make 685 read\(s\), which judge nothing/);
  const violated: AuditResult = { ...unread, invariants: [{ ...cleanAudit.invariants[0]!, ok: false, violations: 1, examples: ['x'] }] };
  assert.equal(report([phase('sustained_routes', { dropped_iterations: 3 })], { audit: violated }).verdict, 'fail');
});

test('under faults as without: an engine that failed before the seed leaves a violation the audit read of records never written, which blames nothing', () => {
  const violated: AuditResult = {
    ...cleanAudit,
    ok: false,
    invariants: [{ ...cleanAudit.invariants[0]!, ok: false, violations: 4, examples: ['x'] }],
  };
  const r = report([phase('sustained_routes')], { audit: violated, engineError: 'k6 exited 1 before the seed' });
  assert.equal(r.verdict, 'could-not-run');
  const figures = {
    faults: 0,
    by_fault: {},
    recovery_ms_max: null,
    recovery_ms_median: null,
    forwarded: 0,
    reset_before_forward: 0,
    lost_after_forward: 0,
  };
  for (const faults of [0, 3]) {
    const judged = judgeUnderFaults(r, { ...figures, faults }, '--nemesis proxy', 0);
    assert.equal(judged.verdict, 'could-not-run', `with ${faults} fault(s): ${judged.reasons.join('; ')}`);
  }
  const seeded = report([phase('sustained_routes')], {
    audit: violated,
    engineError: 'k6 exited 1',
    timings: [`fleetproof-journal ${JSON.stringify({ k: 'phase', phase: 'seed', started: 0, ms: 5, completed: true })}`],
  });
  assert.equal(
    judgeUnderFaults(seeded, { ...figures, faults: 3 }, '--nemesis proxy', 0).verdict,
    'fail',
    'once seeded, a violation the audit read fails the run',
  );
});

test('a check not judged after an indeterminate answer leaves the run could-not-judge, unless something determinate failed', () => {
  const unjudged = `fleetproof-journal ${JSON.stringify({ k: 'unjudged', phase: 'lease_churn', check: '02 lease churn: leases reported expired' })}`;
  const alone = report([phase('lease_churn')], { timings: [timing('lease_churn'), unjudged] });
  assert.equal(alone.verdict, 'could-not-judge');
  assert.match(
    alone.could_not_judge[0]!,
    /^phase lease_churn: 1 check\(s\) not judged: each failed in an iteration whose outcome an answer left open/,
  );
  assert.equal(alone.phases[0]!.status, 'error');
  const withFailure = report([phase('lease_churn'), phase('retry_storm', { checks_ok: false, checks: { passes: 1, fails: 1 } })], {
    timings: [timing('lease_churn'), timing('retry_storm'), unjudged],
  });
  assert.equal(withFailure.verdict, 'fail', 'a check that failed on answers it could judge still fails the registry');
  const underFaults = judgeUnderFaults(
    alone,
    {
      faults: 2,
      by_fault: { proxy: 2 },
      recovery_ms_max: 1,
      recovery_ms_median: 1,
      forwarded: 10,
      reset_before_forward: 1,
      lost_after_forward: 1,
    },
    'R',
    0,
  );
  assert.equal(underFaults.verdict, 'pass', 'under faults, phase checks are measured, not judged');
  assert.ok(underFaults.faults.not_judged.some((r) => /not judged/.test(r)));
});

test('a phase whose every check went unjudged recorded no check: could-not-judge, not "0 of 0 checks failed"', () => {
  const unjudged = `fleetproof-journal ${JSON.stringify({ k: 'unjudged', phase: 'parallel_catalog', check: '01 parallel catalog: every read answered' })}`;
  const r = report([phase('parallel_catalog', { checks_ok: false, checks: { passes: 0, fails: 0 } })], {
    timings: [timing('parallel_catalog'), unjudged],
  });
  assert.equal(r.verdict, 'could-not-judge', r.reasons.join('; '));
  assert.ok(!r.reasons.some((x) => /0 of 0 checks failed/.test(x)), r.reasons.join('; '));
  assert.equal(r.phases[0]!.status, 'error');
});

test('in a profile whose budgets only bound the run (smoke), a phase cut at its budget could not judge', () => {
  const r = report([phase('retry_storm'), phase('catalog_walk')], { timings: [timing('catalog_walk')], budgetsJudgeSpeed: false });
  assert.equal(r.verdict, 'could-not-judge');
  assert.match(
    r.could_not_judge[0]!,
    /^phase retry_storm: interrupted, not finished within its 6 s budget, which in this profile only bounds the run/,
  );
  assert.equal(r.phases.find((p) => p.name === 'retry_storm')!.status, 'error');
});

test('a phase cut at a budget that judges speed could not judge when the flows waited to resend, and fails when they did not', () => {
  // Before, the cut failed the registry though the flows had spent part of the phase's time waiting to resend.
  const resent = report([phase('retry_storm', { resend_wait_ms: 1500 }), phase('catalog_walk')], { timings: [timing('catalog_walk')] });
  assert.equal(resent.verdict, 'could-not-judge', resent.reasons.join('; '));
  assert.match(
    resent.could_not_judge[0]!,
    /^phase retry_storm: interrupted, not finished within its 6 s budget, and the flows spent 1\.5 s of it waiting to send again/,
  );
  const slow = report([phase('retry_storm', { resend_wait_ms: 0 }), phase('catalog_walk')], { timings: [timing('catalog_walk')] });
  assert.equal(slow.verdict, 'fail');
});
