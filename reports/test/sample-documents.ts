// Result documents shaped like real runs, for rendering tests that need no
// registry: a conformance run where one defect fails many cases (one cause),
// with skips proven from the declared limits and each failure's replay; a
// load run with thresholds at and beside their limits (count==0 met at 0)
// and a time series; a breakpoint ramp; a certification over them, and one
// that could not run. Clauses and sections are spec.md's own.
import { clauses } from '../../contract/clauses.ts';
import { caseSetOf, contractRevision } from '../../client/provenance.ts';
import { NOT_PROVOCABLE } from '../../conformance/harness/failure.ts';
import type { BreakpointResult } from '../../load/runner/breakpoint.ts';
import type { FaultsDocument } from '../schemas/faults-result.ts';
import { CONTRACT_VERSION, DEFAULT_LIMITS, type VersionInfo } from '../../contract/records.ts';
import type { CaseResult, ConformanceResult } from '../../conformance/runner/result.ts';
import type { LoadReport } from '../../load/runner/load-report.ts';
import type { JudgedReport } from '../../load/runner/judge-under-faults.ts';
import type { ResultDocument as PropertiesDocument } from '../../properties/runner/result-document.ts';
import { bucketPoints } from '../../load/runner/time-series.ts';
import type { CertificationResult } from '../schemas/certification-result.ts';

const URL_ = 'http://127.0.0.1:8080';
const RUN = 'fp20261201t120000a1b2c3d4';
const version: VersionInfo = {
  implementation: { name: 'sample-registry', version: '1.0.0' },
  contract: CONTRACT_VERSION,
  limits: { ...DEFAULT_LIMITS },
  features: [],
};

function failedSettle(i: number): CaseResult {
  return {
    id: `settlement/fence-${String(i).padStart(3, '0')}-a-case-id-long-enough-to-wrap-on-a-phone`,
    clause: 'settle-fence',
    category: 'settlement',
    severity: 'required',
    description: 'A settlement with a stale fence is refused.',
    flags: [],
    features: [],
    status: 'fail',
    started_at: '2026-12-01T12:00:01.000Z',
    duration_ms: 12,
    message: 'expected 409 FENCE_LOST, got 200',
    failure_clause: 'settle-fence',
    clause_text: clauses().get('settle-fence')!.text,
    replay: { outcome: i % 2 ? 'reproduced' : 'differed', status: 200, code: null, note: i % 2 ? null : 'the run saw 200' },
    exchange_count: 3,
    exchange: {
      request: {
        method: 'POST',
        url: `${URL_}/v1/routes/act_${RUN}_${i}/settlement`,
        headers: { authorization: 'Bearer [redacted]', 'content-type': 'application/json' },
        caller: { roles: ['registry:dispatch'], tenant: `tenant-${RUN}-001` },
        body: {
          text: JSON.stringify({
            fence: i,
            outcome: 'succeeded',
            note: "it's quoted",
            assignment: Object.fromEntries(Array.from({ length: 30 }, (_, k) => [`field_${k}`, `value-${RUN}-${k}`])),
          }),
          bytes: 1600,
          truncated: false,
        },
      },
      response: {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: { text: '{"settled":true}', bytes: 16, truncated: false },
      },
      started_at: '2026-12-01T12:00:01.000Z',
      duration_ms: 4,
    },
  };
}

/** 185 cases failing for one cause, one for another, and passes for the rest of the clauses. */
export function sampleConformance(): ConformanceResult {
  const spec = [...clauses().values()];
  const passes: CaseResult[] = spec.slice(0, 40).map((c) => ({
    ...failedSettle(0),
    id: `${c.section.replace(/\W+/g, '-')}/${c.id}`,
    clause: c.id,
    status: 'pass',
    message: null,
    failure_clause: null,
    exchange: null,
  }));
  const other: CaseResult = {
    ...failedSettle(999),
    id: 'auth/no-token',
    clause: 'auth-bearer',
    message: 'expected 401, got 500',
    failure_clause: 'auth-bearer',
    clause_text: clauses().get('auth-bearer')!.text,
    replay: { outcome: 'no-answer', status: null, code: null, note: 'GET /v1/fleet/status: no response (timeout)' },
    exchange: {
      ...failedSettle(999).exchange!,
      request: { ...failedSettle(999).exchange!.request, method: 'GET', url: `${URL_}/v1/fleet/status`, caller: null, body: null },
      response: {
        status: 500,
        headers: {},
        body: { text: '{"error":{"code":"STORAGE_UNAVAILABLE","message":"x"}}', bytes: 52, truncated: false },
      },
    },
  };
  // Skips proven from the declared limits: never blocking, each with its reason.
  const skips: CaseResult[] = ['page-size-limit', 'batch-items-limit'].map((name) => ({
    ...passes[0]!,
    id: `limits/${name}-at-the-declared-maximum`,
    clause: 'page-limit',
    status: 'skip',
    message: `${NOT_PROVOCABLE}: max_page_size 1 leaves no smaller page to ask for`,
  }));
  const cases = [...passes, ...skips, ...Array.from({ length: 185 }, (_, i) => failedSettle(i + 1)), other];
  const count = (s: string) => cases.filter((c) => c.status === s).length;
  return {
    schema: 'fleetproof-conformance-result/v1',
    run_id: RUN,
    harness: { name: 'fleetproof', version: '0.1.0', commit: 'abc1234', dirty: false, node: 'v20.18.1' },
    contract: {
      version: CONTRACT_VERSION,
      revision: contractRevision(),
      clauses: spec.length,
      required_clauses: spec.filter((c) => c.severity === 'required').length,
    },
    case_set: caseSetOf(cases.map((c) => c.id)),
    rerun: `npx fleetproof conform --target ${URL_} --key /home/vendor/keys/signing-key.jwk.json`,
    target: { url: URL_, version, clock: { offset_ms: 3, uncertainty_ms: 1, source: 'Date header' } },
    config: {
      target: URL_,
      key: { file: '/home/vendor/keys/signing-key.jwk.json', kid: 'k1', private_key: '[redacted]' },
      audience: 'fleetproof-registry',
    },
    features: { declared: [], effective: [], overridden: false },
    selection: { complete: true, categories: [], cases: [], selected: cases.length, total: cases.length },
    timings: {
      started_at: '2026-12-01T12:00:00.000Z',
      finished_at: '2026-12-01T12:00:15.000Z',
      duration_ms: 15000,
      cases_ms: 14000,
      retirement_ms: 1000,
    },
    verdict: 'non-conformant',
    summary: { total: cases.length, pass: count('pass'), fail: count('fail'), skip: count('skip'), error: 0, blocking: count('fail') },
    clauses: spec.map((c, i) => ({
      id: c.id,
      keyword: c.keyword,
      severity: c.severity,
      section: c.section,
      status: c.id === 'settle-fence' ? 'fail' : i < 40 ? 'pass' : 'unknown',
      cases: [],
      failed_by: [],
      exempt: null,
    })),
    categories: [{ id: 'settlement', status: 'fail', counts: { pass: 0, fail: 185, skip: 0, error: 0 } }],
    cases,
    retirement: {
      status: 'retired',
      counts: {
        route: { created: 1, failed: 0 },
        replica: { created: 1, failed: 0 },
        binding: { created: 0, failed: 0 },
        instance: { created: 0, failed: 0 },
        connector_type: { created: 0, failed: 0 },
      },
      failures: [],
      duration_ms: 1000,
    },
  };
}

export function sampleLoad(): LoadReport {
  const t0 = Date.parse('2026-12-01T12:00:00Z');
  const durations: Array<[number, number]> = Array.from({ length: 3000 }, (_, i) => [t0 + i * 10, 2 + (i % 97) / 10 + (i > 2000 ? 40 : 0)]);
  const failures: Array<[number, number]> = durations.map(([t], i) => [t, i % 500 === 0 ? 1 : 0]);
  const threshold = (label: string, metric: string, expression: string, value: number, limit: number, ok: boolean) => ({
    id: label,
    label,
    metric,
    expression,
    unit: metric.includes('duration') ? 'ms' : '',
    source: 'aip-fleet-slo-v1, with a source note long enough to need wrapping',
    ok,
    value,
    limit,
    margin: limit - value,
    margin_pct: limit ? ((limit - value) / limit) * 100 : null,
  });
  return {
    format: 'fleetproof-load-report/v1',
    verdict: 'fail',
    reasons: ['threshold route p99 (http_req_duration{operation:resolve} p(99)<50) failed with 61'],
    run_id: RUN,
    profile: 'smoke',
    overrides: [],
    fitted: [],
    could_not_judge: [],
    measurements_judged: true,
    started_at: '2026-12-01T12:00:00.000Z',
    finished_at: '2026-12-01T12:00:30.000Z',
    engine_exit_code: 99,
    dataset: { tenants: 10, connector_types: 5, instances: 20 },
    thresholds: [
      threshold('no overbooking observed by the script, a label of some length', 'overbooked', 'count==0', 0, 0, true),
      threshold('route p99', 'http_req_duration{operation:resolve}', 'p(99)<50', 61, 50, false),
      threshold('catalog p95', 'http_req_duration{operation:catalog}', 'p(95)<100', 12.5, 100, true),
      threshold('checks', 'checks', 'rate>0.99', 1, 0.99, true),
    ],
    phases: ['seed', 'version_rollout', 'concurrent_routes'].map((name, i) => ({
      name,
      status: 'pass' as const,
      dropped_iterations: 0,
      checks_ok: true,
      checks: { passes: 100, fails: 0 },
      requests: 1000 * (i + 1),
      wall_ms: 3000,
      throughput_rps: 333,
      latency_ms: { count: 1000, med: 2 + i, 'p(95)': 8 * (i + 1), 'p(99)': 30 * (i + 1), max: 200 },
      nearest_rank: [{ operation: 'resolve', count: 1000, p50: 2, p95: 8, p99: 30 }],
    })),
    failed_checks: [],
    routes_over_time: { start_ms: t0, bucket_ms: 500, counts: Array.from({ length: 60 }, (_, i) => 20 + (i % 7)) },
    over_time: bucketPoints(durations, failures),
    metrics: [
      {
        metric: 'http_req_duration',
        type: 'trend',
        contains: 'time',
        count: 3000,
        per_second: 100,
        sum: 30000,
        ratio: null,
        min: 1,
        max: 55,
        avg: 10,
        p50: 6,
        p90: 43,
        p95: 45,
        p99: 50,
      },
      {
        metric: 'http_req_failed',
        type: 'rate',
        contains: 'default',
        count: 3000,
        per_second: 100,
        sum: 6,
        ratio: 0.002,
        min: 0,
        max: 1,
        avg: 0.002,
        p50: null,
        p90: null,
        p95: null,
        p99: null,
      },
      {
        metric: 'data_received',
        type: 'counter',
        contains: 'data',
        count: 3000,
        per_second: 16391,
        sum: 622092,
        ratio: null,
        min: 1,
        max: 900,
        avg: 207,
        p50: null,
        p90: null,
        p95: null,
        p99: null,
      },
      {
        metric: 'http_reqs',
        type: 'counter',
        contains: 'default',
        count: 3000,
        per_second: 100,
        sum: 3000,
        ratio: null,
        min: 1,
        max: 1,
        avg: 1,
        p50: null,
        p90: null,
        p95: null,
        p99: null,
      },
    ],
    anchor_seed_window_ms: 4200,
    routes_seen: 1400,
    audit: {
      ok: true,
      invariants: [
        { id: 'routes_pinned', description: 'every action kept its route', ok: true, checked: 1400, violations: 0, examples: [] },
      ],
      errors: [],
    },
    retirement: { types_disabled: 5, replicas_offline: 20, rejected: 0 },
    environment: {
      harness: { name: 'fleetproof', version: '0.1.0', commit: 'abc1234', dirty: false },
      engine: { name: 'k6', version: 'v1.3.0' },
      target: { url: URL_, version },
      machine: {
        cpu_model: 'sample CPU',
        cpus: 2,
        memory_bytes: 8 * 2 ** 30,
        platform: 'linux 6.1',
        node: 'v20.18.1',
        load_average: { at_start: [1.2, 1.5, 1.1], at_end: [2.4, 1.8, 1.3] },
      },
    },
    script_messages: [],
    contract_revision: contractRevision(),
    case_set: caseSetOf(['profile:smoke', 'phase:seed', 'phase:version_rollout', 'phase:concurrent_routes']),
    rerun: `npx fleetproof load --target ${URL_} --key /home/vendor/keys/signing-key.jwk.json --profile smoke`,
    profile_info: {
      format: 'fleetproof-scale/v1',
      description: 'Every qualification phase on a tiny dataset, with budgets a busy CI machine meets.',
      duration_s: 4,
      judges_speed: false,
      phases: [{ name: 'seed' }, { name: 'version_rollout', budget_s: 3 }, { name: 'concurrent_routes', budget_s: 5 }],
    },
  };
}

/** The breakpoint ramp: held up to 40 routes/s, broke at 50 on its p99 and on errors. */
export function sampleBreakpoint(): LoadReport {
  const step = (rate: number, p99: number, errors: number, held: boolean) => ({
    rate,
    requests: rate * 10,
    p50_ms: p99 / 4,
    p99_ms: p99,
    error_rate: errors,
    dropped_iterations: 0,
    held,
    broken: held ? [] : [`resolve p99 (p(99)<100)`, 'no errors (rate==0)'],
  });
  const breakpoint: BreakpointResult = {
    steps: [step(10, 12, 0, true), step(20, 18, 0, true), step(30, 30, 0, true), step(40, 61, 0, true), step(50, 180, 0.04, false)],
    highest_held_rate: 40,
    limit: 'It broke at 50/s: resolve p99 (p(99)<100); no errors (rate==0).',
    max_rate: 80,
    stopped_early: true,
  };
  return { ...sampleLoad(), profile: 'breakpoint', verdict: 'pass', reasons: [], breakpoint };
}

/** The same load run under a proxy nemesis: judged by its audit, its crossed threshold measured only. */
export function sampleLoadUnderFaults(): JudgedReport {
  const base = sampleLoad();
  const bands = [0, 1, 2].map((k) => ({ fault: 'proxy', start: 2000 + k * 9000, end: 6000 + k * 9000, recovery_ms: 3 + k, error: null }));
  const traffic = Array.from({ length: 30 }, (_, second) => ({
    second,
    requests: 90 + (second % 5),
    errors: bands.some((b) => b.start <= second * 1000 && second * 1000 < b.end) ? 7 : 0,
    latency_ms_mean: 4 + (second % 3),
    latency_ms_max: 40,
  }));
  return {
    ...base,
    verdict: 'pass',
    reasons: [],
    could_not_judge: [],
    measurements_judged: false,
    faults: {
      faults: 3,
      by_fault: { proxy: 3 },
      recovery_ms_max: 5,
      recovery_ms_median: 4,
      forwarded: 2900,
      reset_before_forward: 41,
      lost_after_forward: 77,
      indeterminate_ops: 6,
      replay: '--nemesis proxy --nemesis-interval 4000ms/5000ms --nemesis-seed 9',
      not_judged: [base.reasons[0]!, 'phase concurrent_routes: 3 of 100 checks failed'],
      bands,
      traffic,
    },
  };
}

/** A faults stage's document: three proxy faults over thirty seconds of traffic, the sweep clean. */
export function sampleFaults(): FaultsDocument {
  const under = sampleLoadUnderFaults().faults;
  return {
    schema: 'fleetproof-faults-result/v1',
    kinds: ['proxy'],
    replay: under.replay,
    budget_ms: 2_520_000,
    bands: under.bands,
    figures: {
      faults: 3,
      by_fault: { proxy: 3 },
      recovery_ms_max: 5,
      recovery_ms_median: 4,
      forwarded: 2900,
      reset_before_forward: 41,
      lost_after_forward: 77,
    },
    traffic: under.traffic,
    disturbed: [],
    error: null,
    properties: sampleProperties(),
    sweep: {
      ops: 400,
      indeterminate: 6,
      indeterminate_resolves: { took_effect: 2, no_effect: 1 },
      not_forwarded: 41,
      routes: 120,
      settled_by_sweep: 3,
      violations: [],
    },
    calls: null,
  };
}

/**
 * A failure found under faults as the faults stage words it: the counters a
 * refused settlement changed, one named by a binding's digest, a token far
 * wider than a phone that no space breaks.
 */
const FAULTS_FAILURE =
  'round 1: idempotent-settlement: settle act-1 completed with fence_token altered: refused with STORAGE_UNAVAILABLE but changed replica active_assignments 1 → 0; counter tenant/fp20261201t120000abcdef01.6y.tenant-a 1 → 0; counter binding/sha256:6761fcc6b9c64aabd1390004361bb2b80111a7b75e9bf70a5738e4faee06df50 1 → 0';

export function sampleCertification(conformance: ConformanceResult): CertificationResult {
  const failures = conformance.cases
    .filter((c) => c.status === 'fail')
    .map((c) => ({
      stage: 'conformance' as const,
      subject: c.id,
      clause: c.failure_clause,
      message: `fail: ${c.message}`,
      reproduce: `npx fleetproof conform --target ${URL_} --key k.json --case ${c.id}`,
      cause: `fail: ${c.exchange ? 'settleRoute → 200' : c.message} (breaks ${c.failure_clause})`,
      ...(c.clause_text ? { clause_text: c.clause_text } : {}),
    }));
  return {
    schema: 'fleetproof-certification-result/v1',
    run_id: RUN,
    started_at: '2026-12-01T12:00:00.000Z',
    finished_at: '2026-12-01T12:01:00.000Z',
    harness: { name: 'fleetproof', version: '0.1.0', commit: 'abc1234' },
    contract: CONTRACT_VERSION,
    target: { url: URL_, embedded: false, store: null, version },
    profile: 'smoke',
    environment: {
      node: 'v20.18.1',
      platform: 'linux',
      arch: 'x64',
      cpus: { model: 'sample CPU', count: 2 },
      memory_bytes: 8 * 2 ** 30,
      postgres: null,
    },
    verdict: 'non-conformant',
    reasons: ['conformance: 186 required case(s) failed or errored', `faults: ${FAULTS_FAILURE}`],
    stages: [
      {
        name: 'conformance',
        status: 'failed',
        reasons: ['186 required case(s) failed or errored'],
        duration_ms: 15000,
        result_file: 'conformance/result.json',
        figures: {
          cases: conformance.summary.total,
          pass: conformance.summary.pass,
          fail: conformance.summary.fail,
          retirement: 'retired',
        },
        skips: conformance.cases
          .filter((c) => c.status === 'skip')
          .map((c) => ({ subject: c.id, clause: c.clause, reason: c.message ?? '' })),
      },
      {
        name: 'properties',
        status: 'passed',
        reasons: [],
        duration_ms: 9000,
        result_file: 'properties/result.json',
        figures: { suites: 7, seed: -123456789, runs: 350 },
      },
      {
        name: 'faults',
        status: 'failed',
        reasons: [FAULTS_FAILURE],
        duration_ms: 19500,
        result_file: 'faults/result.json',
        figures: { faults: 3, recovery_ms_max: 5, lost_after_forward: 77, indeterminate_runs: 0 },
      },
      {
        name: 'load',
        status: 'failed',
        reasons: ['threshold route p99 failed'],
        duration_ms: 30000,
        result_file: 'load/summary.json',
        figures: { profile: 'smoke', engine: 'k6', thresholds: 4, routes_seen: 1400, route_p99_ms: 61 },
      },
    ],
    clauses: conformance.clauses.map((c) => ({
      id: c.id,
      keyword: c.keyword,
      severity: c.severity,
      section: c.section,
      status: c.status === 'fail' ? 'fail' : c.status === 'pass' ? 'pass' : 'unknown',
      cases: [],
      properties: [],
    })),
    failures: [
      ...failures,
      {
        stage: 'faults',
        subject: 'idempotent-settlement',
        clause: 'settle-fence',
        message: FAULTS_FAILURE,
        reproduce: `npx fleetproof certify --target ${URL_} --key k.json --nemesis proxy --nemesis-seed 41`,
        cause: 'idempotent-settlement under faults',
      },
    ],
    contract_revision: contractRevision(),
    case_set: caseSetOf(conformance.cases.map((c) => `case:${c.id}`)),
    rerun: `npx fleetproof certify --target ${URL_} --key /home/vendor/keys/signing-key.jwk.json --profile smoke`,
  };
}

/** A certification whose target went away in the conformance stage: it could not run, the other stages not reached. */
export function sampleCouldNotRun(): CertificationResult {
  const base = sampleCertification(sampleConformance());
  return {
    ...base,
    verdict: 'could-not-run',
    reasons: ['conformance: the target went away: GET /version: no response (ECONNREFUSED)'],
    grounds: ['scale: smoke — not a scale qualification', 'MUST clauses no check exercised: [settle-fence], [auth-bearer]'],
    stages: base.stages.map((st, i) => ({
      ...st,
      status: i === 0 ? ('could-not-run' as const) : ('skipped' as const),
      reasons: [i === 0 ? 'the target went away: GET /version: no response (ECONNREFUSED)' : 'the conformance stage could not run'],
      duration_ms: i === 0 ? 1200 : 0,
      result_file: null,
      figures: {},
    })),
    clauses: base.clauses.map((c) => ({ ...c, status: 'unknown' as const })),
    failures: [],
  };
}

/** Two property suites, one holding and one with a counterexample. */
export function sampleProperties(): PropertiesDocument {
  const suite = {
    property: 'pinned-routes' as const,
    property_title: 'Pinned routes',
    runs: 50,
    indeterminate_runs: 1,
    shrinks: 0,
    duration_ms: 4000,
    seed: -12,
    path: null,
    violation: null,
    counterexample: null,
    replay: null,
    error: null,
  };
  return {
    schema: 'fleetproof-properties-result/v1',
    run_id: 'fp20261201t120000a1b2c3d4',
    harness: { name: 'fleetproof', version: '0.1.0' },
    target: { kind: 'http', description: URL_ },
    seed: { value: -12, source: 'given' },
    started_at: '2026-12-01T12:00:15.000Z',
    finished_at: '2026-12-01T12:00:24.000Z',
    settings: { budget_ms: 1_360_000, answer_limit_bytes: 64 * 1024 * 1024 },
    verdict: 'counterexample',
    exit_code: 1,
    suites: [
      { ...suite, name: 'pinned-routes', status: 'pass' },
      {
        ...suite,
        name: 'idempotent-settlement',
        property: 'idempotent-settlement',
        property_title: 'Idempotent settlement',
        status: 'fail',
        path: '3:1',
        violation: {
          property: 'idempotent-settlement',
          property_title: 'Idempotent settlement',
          message: 'a replayed settlement released twice',
        },
        counterexample: ['resolve a1', 'settle a1', 'settle a1'],
        replay: {
          command: "npx fleetproof properties --suite idempotent-settlement --seed=-12 --path '3:1'",
          env: { FC_SEED: '-12', FC_SUITE: 'idempotent-settlement', FC_PATH: '3:1' },
        },
      },
    ],
  };
}
