// The scale qualification report (fleetproof-load-report/v1): the verdict,
// every threshold with its value and margin, each phase's latencies and
// throughput, routes over time, the audit and the environment. Built from
// the script's summary (any engine), the run journal and the audit; the
// HTML and Markdown pages are rendered from this document alone.
import type { VerdictKey } from '../../contract/verdict-words.ts';
import type { AuditResult } from './audit.ts';
import type { LoadEnvironment } from './environment.ts';
import type { Journal } from './journal.ts';
import type { Retirement } from './retire.ts';
import type { MetricRow } from './metric-summary.ts';
import type { TimeSeries } from './time-series.ts';

export interface EngineSummary {
  format: string;
  run_id: string;
  target: string;
  profile: { name: string; format: string; duration_s: number | null; phases: { name: string; budget_s?: number; params?: Record<string, number> }[] };
  dataset: Record<string, number>;
  thresholds_passed: boolean;
  thresholds: { id: string; label: string; metric: string; expression: string; unit: string; source?: string; ok: boolean; value: number | null; margin: number | null }[];
  phases: { name: string; checks_ok: boolean; checks: { passes: number; fails: number }; latency_ms: Record<string, number> | null; requests: number }[];
  checks: { name: string; passes: number; fails: number }[];
  test_run_duration_ms: number | null;
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
}

export interface PhaseRow {
  name: string;
  checks_ok: boolean;
  checks: { passes: number; fails: number };
  requests: number;
  wall_ms: number | null;
  throughput_rps: number | null;
  latency_ms: Record<string, number> | null;
  /** Lower nearest-rank percentiles of the journal's raw latencies (the anchor's method). */
  nearest_rank: { operation: string; count: number; p50: number; p95: number; p99: number }[];
}

export interface LoadReport {
  format: 'fleetproof-load-report/v1';
  verdict: 'pass' | 'fail';
  reasons: string[];
  run_id: string;
  profile: string;
  overrides: string[];
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
}

/** A load verdict in the common words: a profile met is qualified, one missed is not. */
export function loadVerdictKey(verdict: LoadReport['verdict']): VerdictKey {
  return verdict === 'pass' ? 'qualified' : 'non-conformant';
}

const nearestRank = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.floor(((sorted.length - 1) * p) / 100)]!);

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

export function buildLoadReport(args: {
  summary: EngineSummary | null;
  journal: Journal;
  audit: AuditResult | null;
  environment: LoadEnvironment;
  engineExitCode: number;
  engineError: string | null;
  runId: string;
  profile: string;
  overrides: string[];
  dataset: Record<string, number>;
  startedAt: Date;
  finishedAt: Date;
  retirement: Retirement | null;
  overTime?: TimeSeries | null;
  metrics?: MetricRow[];
  /** Why there is no audit, when it is not a failure of this run (a part of a distributed run is audited at the merge). */
  auditMissing?: string;
}): LoadReport {
  const { summary, journal, audit } = args;
  const reasons: string[] = [];
  if (args.engineError) reasons.push(`the load engine failed: ${args.engineError}`);
  if (!summary) reasons.push('the load engine wrote no summary');
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
    };
  });
  for (const t of thresholds) if (!t.ok) reasons.push(`threshold ${t.label} (${t.metric} ${t.expression}) failed with ${t.value ?? 'no value'}`);
  const durationS = summary?.profile.duration_s ?? null;
  const phases: PhaseRow[] = (summary?.phases ?? []).map((p) => {
    const timing = journal.phases.find((x) => x.phase === p.name);
    const sustained = !timing && p.name !== 'seed' && durationS !== null;
    const wall = timing ? timing.ms : sustained ? durationS! * 1000 : null;
    if (!p.checks_ok) reasons.push(`phase ${p.name}: ${p.checks.fails} of ${p.checks.passes + p.checks.fails} checks failed`);
    return {
      name: p.name,
      checks_ok: p.checks_ok,
      checks: p.checks,
      requests: p.requests,
      wall_ms: wall,
      throughput_rps: wall ? p.requests / (wall / 1000) : null,
      latency_ms: p.latency_ms,
      nearest_rank: journal.latencies
        .filter((l) => l.phase === p.name)
        .map((l) => {
          const sorted = [...l.ms].sort((a, b) => a - b);
          return { operation: l.operation, count: sorted.length, p50: nearestRank(sorted, 50), p95: nearestRank(sorted, 95), p99: nearestRank(sorted, 99) };
        }),
    };
  });
  if (audit && !audit.ok) {
    for (const i of audit.invariants) if (!i.ok) reasons.push(`audit: ${i.description}: ${i.violations} violation(s)`);
    for (const e of audit.errors) reasons.push(`audit could not read: ${e}`);
  }
  if (!audit) reasons.push(args.auditMissing ?? 'the audit did not run');
  return {
    format: 'fleetproof-load-report/v1',
    verdict: reasons.length === 0 ? 'pass' : 'fail',
    reasons,
    run_id: args.runId,
    profile: args.profile,
    overrides: args.overrides,
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
  };
}
