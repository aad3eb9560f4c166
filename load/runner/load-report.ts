// The scale qualification report (fleetproof-load-report/v1): the verdict,
// every threshold with its value and margin, each phase's latencies and
// throughput, routes over time, the audit and the environment. Built from
// the script's summary (any engine), the run journal and the audit; the
// HTML and Markdown pages are rendered from this document alone.
import { caseSetOf, contractRevision, type CaseSet } from '../../client/provenance.ts';
import { VERDICT_WORDS, type VerdictKey } from '../../client/verdict-words.ts';
import type { AuditResult } from './audit.ts';
import type { BreakpointResult } from './breakpoint.ts';
import type { LoadEnvironment } from './environment.ts';
import type { Journal } from './journal.ts';
import { judgePhases, type EnginePhase, type PhaseRow } from './phase-rows.ts';
import type { Retirement } from './retire.ts';
import type { MetricRow } from './metric-summary.ts';
import type { TimeSeries } from './time-series.ts';

export interface EngineSummary {
  format: string;
  run_id: string;
  target: string;
  profile: {
    name: string;
    format: string;
    duration_s: number | null;
    max_dropped_iterations?: number;
    budgets_judge_speed?: boolean;
    phases: { name: string; budget_s?: number; params?: Record<string, number> }[];
  };
  dataset: Record<string, number>;
  thresholds_passed: boolean;
  thresholds: {
    id: string;
    label: string;
    metric: string;
    expression: string;
    unit: string;
    source?: string;
    ok: boolean;
    value: number | null;
    margin: number | null;
    /** Why the threshold, though measured, is no verdict (a distributed run whose parts did not run side by side). */
    not_judged?: string;
  }[];
  phases: EnginePhase[];
  checks: { name: string; passes: number; fails: number }[];
  test_run_duration_ms: number | null;
  /** When setup ended and the scenarios' schedule began; absent from summaries written before the script recorded it. */
  load_started_at?: string | null;
}

export interface ThresholdRow {
  id: string;
  label: string;
  metric: string;
  expression: string;
  unit: string;
  source: string | null;
  ok: boolean;
  value: number | null;
  limit: number | null;
  margin: number | null;
  /** Margin as a percentage of the limit. */
  margin_pct: number | null;
  /** Why the measured value is no verdict; absent when it is one. */
  not_judged?: string;
}

export interface LoadReport {
  format: 'fleetproof-load-report/v1';
  /**
   * could-not-run: the run did not happen as planned (the engine failed or
   * wrote no summary, the seed could not be written, the target went away or
   * stopped accepting the run's tokens); could-not-judge: it ran but did not
   * put its load on the target, or could not read what it did. Either is
   * shown first, and neither is a verdict on the registry.
   */
  verdict: 'pass' | 'fail' | 'could-not-judge' | 'could-not-run';
  /** Why the run could not judge, first; then the failures. */
  reasons: string[];
  /**
   * What the run could not judge: these make it could-not-run or
   * could-not-judge, unless an audited violation fails it (or, for checks
   * not judged after an indeterminate answer, another failure does).
   */
  could_not_judge: string[];
  /**
   * Whether failed thresholds and phase checks count against the registry:
   * not in a run that could not judge its load, nor under faults, where they
   * are measured only. Audit invariants always count.
   */
  measurements_judged: boolean;
  run_id: string;
  profile: string;
  overrides: string[];
  /** Sizes the run lowered to fit the limits the target declares; a fitted run still qualifies. */
  fitted: string[];
  /** How the phase budgets were stretched to a busy machine, where the profile's budgets judge no speed; null when they were not. */
  stretched?: string | null;
  started_at: string;
  finished_at: string;
  engine_exit_code: number;
  dataset: Record<string, number>;
  thresholds: ThresholdRow[];
  phases: PhaseRow[];
  failed_checks: { name: string; passes: number; fails: number }[];
  routes_over_time: { start_ms: number; bucket_ms: number; counts: number[] };
  /** Requests, failures and latency per time bucket, from the raw metric output; null when there was none. */
  over_time: TimeSeries | null;
  /** Every metric of the run, k6's end-of-test table; empty when there was no raw output. */
  metrics: MetricRow[];
  /**
   * Seed plus the rollout, noisy-tenant and retry-storm phases, summed from
   * their wall times: the span getaip/core's seed timer covers. Null when a
   * phase of the four did not run.
   */
  anchor_seed_window_ms: number | null;
  routes_seen: number;
  audit: AuditResult | null;
  /** What the run retired after the audit; null when kept (--keep-data) or not reached. */
  retirement: Retirement | null;
  environment: LoadEnvironment;
  script_messages: string[];
  /** The breakpoint profile's curve and answer; absent for the fixed-rate profiles. */
  breakpoint?: BreakpointResult;
  /** The contract revision the run judged by (openapi.yaml info.version); absent in reports of older harnesses. */
  contract_revision?: string;
  /** The profile as run (its phases, thresholds and dataset) as one digest. */
  case_set?: CaseSet;
  /** The command that reruns this run, secrets as placeholders. */
  rerun?: string;
  /** The profile as the scale contract describes it, for a report that stands alone. */
  profile_info?: ProfileInfo;
}

export interface ProfileInfo {
  /** The scale contract's format, e.g. fleetproof-scale/v1. */
  format: string;
  description: string;
  duration_s: number | null;
  /** Whether a phase cut at its budget fails the registry: false where the profile judges correctness only. */
  judges_speed: boolean;
  phases: Array<{ name: string; start?: string; budget_s?: number }>;
}

/** What a profile ran, as the items of its case set: phases, thresholds with their expressions, and the dataset. */
export function profileCaseSet(profile: {
  name: string;
  phases: ReadonlyArray<{ name: string }>;
  thresholds: ReadonlyArray<{ id: string; metric: string; expression: string }>;
  dataset: Record<string, number>;
}): CaseSet {
  return caseSetOf([
    `profile:${profile.name}`,
    ...profile.phases.map((p) => `phase:${p.name}`),
    ...profile.thresholds.map((t) => `threshold:${t.id} ${t.metric} ${t.expression}`),
    ...Object.entries(profile.dataset).map(([k, v]) => `dataset:${k}=${v}`),
  ]);
}

/** A load verdict in the common words: a profile met is qualified, one missed is not. */
export function loadVerdictKey(verdict: LoadReport['verdict']): VerdictKey {
  return verdict === 'pass' ? 'qualified' : verdict === 'fail' ? 'non-conformant' : verdict;
}

/** The verdict as a console line says it: a pass with overrides (a partial run, a --set) is no qualification of the profile. */
export function loadVerdictWords(r: Pick<LoadReport, 'verdict' | 'overrides'>): string {
  const words = VERDICT_WORDS[loadVerdictKey(r.verdict)];
  return r.verdict === 'pass' && r.overrides.length > 0
    ? `${words} (ran with ${r.overrides.join(', ')}: not a qualification of the profile)`
    : words;
}

/** Whether a verdict is no verdict on the registry: the run could not run, or could not judge. */
export function undecidedVerdict(verdict: LoadReport['verdict']): boolean {
  return verdict === 'could-not-run' || verdict === 'could-not-judge';
}

function limitOf(expression: string): number | null {
  const m = /(-?[0-9.]+)\s*$/.exec(expression);
  return m ? Number(m[1]) : null;
}

function routesOverTime(journal: Journal): LoadReport['routes_over_time'] {
  const times = [...journal.routes.values()].map((r) => r.t).sort((a, b) => a - b);
  if (times.length === 0) return { start_ms: 0, bucket_ms: 1000, counts: [] };
  const start = times[0]!;
  const span = times[times.length - 1]! - start;
  // About a hundred buckets, never finer than 100 ms.
  const bucket = Math.max(100, Math.ceil(span / 100 / 100) * 100);
  const counts = new Array<number>(Math.floor(span / bucket) + 1).fill(0);
  for (const t of times) counts[Math.floor((t - start) / bucket)]!++;
  return { start_ms: start, bucket_ms: bucket, counts };
}

const ANCHOR_SEED_PHASES = ['seed', 'version_rollout', 'noisy_tenant', 'retry_storm'];

function anchorSeedWindow(journal: Journal): number | null {
  const times = ANCHOR_SEED_PHASES.map((name) => journal.phases.find((p) => p.phase === name)?.ms);
  return times.every((t) => t !== undefined) ? times.reduce((a, b) => a! + b!, 0)! : null;
}

/** The reason a run that never seeded its dataset gives: the audit's violations then judge nothing. */
export const NEVER_SEEDED = 'the dataset was never seeded, so the audit judges nothing';

export function buildLoadReport(args: {
  summary: EngineSummary | null;
  journal: Journal;
  audit: AuditResult | null;
  environment: LoadEnvironment;
  engineExitCode: number;
  engineError: string | null;
  /** Why the run was stopped before its end (a signal, the stage's budget), naming what it had not finished; the phases it cut show nothing. */
  stopped?: string | null;
  runId: string;
  profile: string;
  overrides: string[];
  fitted?: string[];
  stretched?: string;
  dataset: Record<string, number>;
  startedAt: Date;
  finishedAt: Date;
  retirement: Retirement | null;
  overTime?: TimeSeries | null;
  metrics?: MetricRow[];
  /** Why there is no audit, when it is not a failure of this run (a part of a distributed run is audited at the merge). */
  auditMissing?: string;
  /** A part of a distributed run: the phases it holds no share of, which the other parts run (phases-elsewhere.ts). */
  elsewhere?: readonly string[];
  /** A ramp's curve: its thresholds are its stopping rule, so one breaking is the answer, not a failure. */
  breakpoint?: BreakpointResult | null;
  /** What the preflight's checks found wrong with the target after the load (it went away, it refuses the run's tokens). */
  targetProblem?: string | null;
  /** The command that reruns the run. */
  rerun?: string;
  /** The profile as run, for its description and its case set. */
  profileSpec?: ProfileInfo & { thresholds: ReadonlyArray<{ id: string; metric: string; expression: string }> };
}): LoadReport {
  const { summary, journal, audit } = args;
  const reasons: string[] = [];
  // The run did not happen as planned: nothing it saw is evidence either way.
  const notRun: string[] = [];
  if (args.targetProblem) notRun.push(`after the load, ${args.targetProblem}: what the run saw fail is no evidence against the registry`);
  if (args.stopped) notRun.push(args.stopped);
  if (args.engineError) notRun.push(`the load engine failed: ${args.engineError}`);
  if (!summary) notRun.push('the load engine wrote no summary');
  const undecided: string[] = [...notRun];
  const droppedBound = summary?.profile.max_dropped_iterations ?? 0;
  const dropped = (summary?.phases ?? []).reduce((n, p) => n + (p.dropped_iterations ?? 0), 0);
  if (dropped > droppedBound) {
    const where = (summary?.phases ?? [])
      .filter((p) => (p.dropped_iterations ?? 0) > 0)
      .map((p) => `${p.name} ${p.dropped_iterations}`)
      .join(', ');
    undecided.push(
      `could not judge at this rate: the load generator could not start ${dropped} iteration(s) (${where}; the profile allows ${droppedBound}); give it more VUs or CPU, or lower the rate`,
    );
  }
  const thresholds: ThresholdRow[] = (summary?.thresholds ?? []).map((t) => {
    const limit = limitOf(t.expression);
    return {
      id: t.id,
      label: t.label,
      metric: t.metric,
      expression: t.expression,
      unit: t.unit,
      source: t.source ?? null,
      ok: t.ok,
      value: t.value,
      limit,
      margin: t.margin,
      margin_pct: t.margin !== null && limit ? (t.margin / Math.abs(limit)) * 100 : null,
      ...(t.not_judged !== undefined ? { not_judged: t.not_judged } : {}),
    };
  });
  const ramp = args.breakpoint ?? null;
  if (ramp) {
    if (ramp.highest_held_rate === null) reasons.push(`breakpoint: no rate held. ${ramp.limit}`);
  } else
    for (const t of thresholds)
      if (!t.ok && t.not_judged === undefined)
        reasons.push(`threshold ${t.label} (${t.metric} ${t.expression}) failed with ${t.value ?? 'no value'}`);
  // Checks that failed after an indeterminate answer judge nothing ([failure-indeterminate]); they leave the run
  // undecided only where nothing else failed it. So do thresholds measured under another load than the plan's.
  const unsure: string[] = thresholds
    .filter((t) => t.not_judged !== undefined)
    .map((t) => `threshold ${t.label} (${t.metric} ${t.expression}): ${t.not_judged}`);
  // A phase another part runs is no phase of this one: its absence here is no cut.
  const elsewhere = (args.elsewhere ?? []).filter((name) => !journal.phases.some((x) => x.phase === name));
  if (elsewhere.length > 0)
    undecided.push(
      `phase${elsewhere.length > 1 ? 's' : ''} ${elsewhere.join(', ')}: run by the other parts of this distributed run, judged when they are merged`,
    );
  const judged = judgePhases({
    phases: (summary?.phases ?? []).filter((p) => !elsewhere.includes(p.name)),
    profile: summary?.profile ?? { duration_s: null, phases: [] },
    journal,
    droppedBound,
    ramp: ramp !== null,
    stopped: Boolean(args.stopped),
  });
  const phases = judged.rows;
  undecided.push(...judged.undecided);
  reasons.push(...judged.reasons);
  unsure.push(...judged.unsure);
  // An engine that failed before the seed finished left records absent that the audit then misses: no violation of the registry's.
  const seeded = journal.phases.some((p) => p.phase === 'seed' && p.completed !== false);
  if (notRun.length > 0 && !seeded) undecided.push(NEVER_SEEDED);
  const violated = notRun.length > 0 && !seeded ? [] : (audit?.invariants ?? []).filter((i) => !i.ok);
  for (const i of violated) reasons.push(`audit: ${i.description}: ${i.violations} violation(s)`);
  if (audit && audit.errors.length > 0)
    undecided.push(
      `the audit could not make ${audit.unread ?? audit.errors.length} read(s), which judge nothing: ${audit.errors.join('; ')}`,
    );
  if (!audit) undecided.push(args.auditMissing ?? 'the audit did not run');
  // A violation the audit read back is evidence whatever else went wrong; other failures are not, in a run that could not judge.
  const verdict =
    violated.length > 0
      ? 'fail'
      : notRun.length > 0
        ? 'could-not-run'
        : undecided.length > 0
          ? 'could-not-judge'
          : reasons.length > 0
            ? 'fail'
            : unsure.length > 0
              ? 'could-not-judge'
              : 'pass';
  return {
    format: 'fleetproof-load-report/v1',
    verdict,
    reasons: [...undecided, ...reasons, ...unsure],
    could_not_judge: [...undecided, ...unsure],
    measurements_judged: undecided.length === 0,
    run_id: args.runId,
    profile: args.profile,
    overrides: args.overrides,
    fitted: args.fitted ?? [],
    stretched: args.stretched ?? null,
    started_at: args.startedAt.toISOString(),
    finished_at: args.finishedAt.toISOString(),
    engine_exit_code: args.engineExitCode,
    dataset: args.dataset,
    thresholds,
    phases,
    failed_checks: (summary?.checks ?? []).filter((c) => c.fails > 0),
    routes_over_time: routesOverTime(journal),
    over_time: args.overTime ?? null,
    metrics: args.metrics ?? [],
    anchor_seed_window_ms: anchorSeedWindow(journal),
    routes_seen: journal.routes.size,
    audit,
    retirement: args.retirement,
    environment: args.environment,
    script_messages: journal.messages.slice(0, 50),
    ...(ramp ? { breakpoint: ramp } : {}),
    contract_revision: contractRevision(),
    ...(args.profileSpec
      ? {
          case_set: profileCaseSet({ name: args.profile, ...args.profileSpec, dataset: args.dataset }),
          profile_info: {
            format: args.profileSpec.format,
            description: args.profileSpec.description,
            duration_s: args.profileSpec.duration_s,
            judges_speed: args.profileSpec.judges_speed,
            phases: args.profileSpec.phases.map(({ name, start, budget_s }) => ({
              name,
              ...(start ? { start } : {}),
              ...(budget_s !== undefined ? { budget_s } : {}),
            })),
          },
        }
      : {}),
    ...(args.rerun ? { rerun: args.rerun } : {}),
  };
}
