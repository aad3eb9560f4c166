// `fleetproof report --merge DIR...`: the parts of one distributed load run
// made into one result. The parts' histograms are added series by series
// (never their percentiles averaged), every percentile and aggregate is read
// from the merged histograms, and the profile's thresholds and phase checks
// are evaluated once on them. Given the run's shared plan, the merge audits
// the target itself over every part's routes; otherwise the audits the parts
// ran are carried over, an invariant violated in any part failing the merged
// verdict. The parts must have run side by side, as the plan schedules them
// (part-overlap.ts): where they did not, the merge says so and the
// thresholds measured at their combined rate are not judged. Inputs that are
// not parts of one run are refused (exit 2):
// different runs, profiles, profile settings or contract versions, a
// directory or an instance given twice, execution segments that overlap,
// come from another split or leave part of the test out.
import { defaultRunDir } from '../../client/run-id.ts';
import { join } from 'node:path';
import { canonicalJson } from '../../contract/canonical-json.js';
import type { AfterLoad } from '../runner/audit-and-retire.ts';
import { captureEnvironment } from '../runner/environment.ts';
import type { Journal } from '../runner/journal.ts';
import { mergeAudits, mergeJournals } from './merge-journals.ts';
import { buildLoadReport, loadVerdictWords, type EngineSummary, type LoadReport } from '../runner/load-report.ts';
import { evaluateThreshold, selectSeries, trendStats, type ThresholdOutcome } from '../runner/evaluate.ts';
import { loadExitCode } from '../runner/exit-code.ts';
import { FleetproofError, outcomeOf, type HarnessErrorCode } from '../../client/errors.ts';
import { rawOutputName, readRunPart, type RunPart } from './run-part.ts';
import { readRunOutput, type RunOutput } from '../runner/run-output.ts';
import {
  HISTOGRAMS_FILE,
  RunHistograms,
  writeRunHistograms,
  type ProfileIdentity,
  type RunIdentity,
} from '../histograms/run-histograms.ts';
import { coverage, fractionText, parseSegment, SegmentError, segmentProblem, union, type Segment } from '../runner/segments.ts';
import { writeSummary, type ReportWriter } from '../runner/write-summary.ts';
import { breakpointCurve } from '../runner/breakpoint.ts';
import { loadScaleContract, type ScaleContract } from '../runner/scale-contract.ts';
import { RATE_PHASES } from '../lib/options.js';
import { dependsOnCombinedRate, hasRatePhases, overlapText, partOverlap, type PartOverlap } from './part-overlap.ts';

export class MergeRefusal extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_MERGE', message, options);
  }
}

export interface PartSummary {
  dir: string;
  source: string;
  instances: string[];
  execution_segment: string | null;
  engine: { name: string; version: string } | null;
  engine_exit_code: number | null;
  audited: boolean;
  /** Metric points the part's histograms hold. */
  points: number;
  test_run_duration_ms: number | null;
}

export interface MergeInfo {
  parts: PartSummary[];
  /** The share of the test the parts cover, "1" when all of it; null when a segment is unknown. */
  coverage: string | null;
  execution_segment: string | null;
  dimensions: string[];
  test_run_duration_ms: number | null;
  /** Whether the parts ran side by side as the plan schedules them. */
  overlap: PartOverlap;
  scheme: string;
  notes: string[];
}

export interface MergedReport extends LoadReport {
  merge: MergeInfo;
}

export const SCHEME_TEXT =
  "Percentiles come from the merged histograms: exact values while a sub-metric holds at most 1024 distinct values (k6's interpolation between closest ranks), else log-linear buckets of 2^-10 relative width (1024 per power of two) read at their midpoints, within 0.049 % of the exact value; counts, sums, min and max are exact.";

/** The shipped scale contract, read and checked against its schema once per process, only for parts that need it. */
let shipped: ScaleContract | undefined;

/** How a profile judges its generator and budgets: as recorded, else as the contract's profile of that name says. */
function profileJudging(p: ProfileIdentity): { max_dropped_iterations: number; budgets_judge_speed: boolean } {
  const spec =
    p.max_dropped_iterations === undefined || p.budgets_judge_speed === undefined
      ? (shipped ??= loadScaleContract()).profiles[p.name]
      : undefined;
  return {
    max_dropped_iterations: p.max_dropped_iterations ?? spec?.max_dropped_iterations ?? 0,
    budgets_judge_speed: p.budgets_judge_speed ?? spec?.budgets_judge_speed !== false,
  };
}

const profileKey = (p: ProfileIdentity) =>
  canonicalJson({
    format: p.format,
    name: p.name,
    phase_checks: p.phase_checks,
    duration_s: p.duration_s,
    dataset: p.dataset,
    phases: p.phases,
    thresholds: p.thresholds,
    ...profileJudging(p),
  });

const pointsOf = (h: RunHistograms) =>
  [...h.metrics.values()].reduce((n, m) => n + [...m.series.values()].reduce((k, s) => k + s.count, 0), 0);

/** Refuses parts that are not pieces of one run; returns their segments (null where unknown). */
export function checkParts(parts: RunPart[]): (Segment | null)[] {
  if (parts.length === 0) throw new MergeRefusal('nothing to merge: give the run directories of the parts');
  const seenDirs = new Map<string, string>();
  const seenInstances = new Map<string, string>();
  for (const p of parts) {
    const before = seenDirs.get(p.realDir);
    if (before !== undefined) throw new MergeRefusal(`${p.dir} is given twice (${before} is the same directory)`);
    seenDirs.set(p.realDir, p.dir);
    for (const id of p.histograms.run.instances) {
      const other = seenInstances.get(id);
      if (other !== undefined)
        throw new MergeRefusal(`${p.dir} and ${other} hold the same instance's results (${id}): a part is given twice`);
      seenInstances.set(id, p.dir);
    }
  }
  const first = parts[0]!;
  const a = first.histograms.run;
  for (const p of parts.slice(1)) {
    const b = p.histograms.run;
    if (b.profile.format !== a.profile.format) {
      throw new MergeRefusal(
        `${p.dir} ran contract ${b.profile.format}, ${first.dir} ran ${a.profile.format}: different contract versions do not merge`,
      );
    }
    if (b.profile.name !== a.profile.name)
      throw new MergeRefusal(`${p.dir} ran profile ${b.profile.name}, ${first.dir} ran ${a.profile.name}: different profiles do not merge`);
    if (profileKey(b.profile) !== profileKey(a.profile)) {
      const judging = [profileJudging(a.profile), profileJudging(b.profile)] as const;
      const differ = [
        ...(['dataset', 'phases', 'thresholds', 'phase_checks', 'duration_s'] as const).filter(
          (k) => canonicalJson(b.profile[k] ?? null) !== canonicalJson(a.profile[k] ?? null),
        ),
        ...(['max_dropped_iterations', 'budgets_judge_speed'] as const).filter((k) => judging[0][k] !== judging[1][k]),
      ];
      throw new MergeRefusal(`${p.dir} and ${first.dir} ran profile ${a.profile.name} with different settings (${differ.join(', ')})`);
    }
    if (b.run_id !== a.run_id)
      throw new MergeRefusal(
        `${p.dir} is run ${b.run_id}, ${first.dir} is run ${a.run_id}: only the parts of one run (one shared run plan) merge`,
      );
    if (p.histograms.dimensions.join() !== first.histograms.dimensions.join()) {
      throw new MergeRefusal(
        `${p.dir} and ${first.dir} recorded series by different tags (${p.histograms.dimensions.join(',')} / ${first.histograms.dimensions.join(',')})`,
      );
    }
  }
  const segments = parts.map((p) => {
    const text = p.histograms.run.execution_segment;
    if (text === null) return null;
    try {
      return parseSegment(text);
    } catch (err) {
      throw new MergeRefusal(`${p.dir}: ${(err as SegmentError).message}`);
    }
  });
  const known = parts.flatMap((p, k) =>
    segments[k] ? [{ dir: p.dir, segment: segments[k]!, sequence: p.histograms.run.execution_segment_sequence }] : [],
  );
  // A part that does not say its segment may be the missing share: coverage is checked when every part says.
  const problem = segmentProblem(known, known.length === parts.length);
  if (problem) throw new MergeRefusal(problem);
  return segments;
}

function mergedIdentity(parts: RunPart[], segments: (Segment | null)[]): RunIdentity {
  const runs = parts.map((p) => p.histograms.run);
  const a = runs[0]!;
  const same = <T>(values: T[]): T | null =>
    values.every((v) => canonicalJson(v ?? null) === canonicalJson(values[0] ?? null)) ? (values[0] ?? null) : null;
  const times = (f: (r: RunIdentity) => string | null) =>
    runs
      .map(f)
      .filter((t): t is string => t !== null)
      .sort();
  const durations = runs.map((r) => r.test_run_duration_ms).filter((d): d is number => d !== null);
  const allKnown = segments.every((s) => s !== null);
  return {
    run_id: a.run_id,
    instances: runs.flatMap((r) => r.instances),
    profile: a.profile,
    execution_segment: allKnown ? union(segments as Segment[]) : null,
    execution_segment_sequence: same(runs.map((r) => r.execution_segment_sequence)),
    engine: same(runs.map((r) => r.engine)),
    target: same(runs.map((r) => r.target)),
    started_at: times((r) => r.started_at)[0] ?? null,
    load_started_at: times((r) => r.load_started_at ?? null)[0] ?? null,
    finished_at: times((r) => r.finished_at).pop() ?? null,
    // The instances run the same schedule side by side: the test lasted as long as the longest.
    test_run_duration_ms: durations.length ? Math.max(...durations) : null,
  };
}

/** The parts' histograms added together. */
export function mergeParts(parts: RunPart[], segments: (Segment | null)[] = parts.map(() => null)): RunHistograms {
  const merged = new RunHistograms(mergedIdentity(parts, segments), parts[0]!.histograms.dimensions);
  for (const p of parts) merged.mergeFrom(p.histograms);
  return merged;
}

export interface Evaluation {
  thresholds: (ProfileIdentity['thresholds'][number] & { ok: boolean; value: number | null; margin: number | null })[];
  phases: {
    name: string;
    checks_ok: boolean;
    checks: { passes: number; fails: number };
    latency_ms: Record<string, number> | null;
    requests: number;
    dropped_iterations: number;
    resend_wait_ms: number;
  }[];
  checks: { name: string; passes: number; fails: number }[];
  thresholds_passed: boolean;
}

/** The profile's thresholds and phase checks, evaluated once on (merged) histograms. */
export function evaluateRun(h: RunHistograms): Evaluation {
  const profile = h.run.profile;
  const durationMs = h.run.test_run_duration_ms ?? 0;
  const outcome = (key: string, expression: string): ThresholdOutcome => evaluateThreshold(h, key, expression, durationMs);
  const thresholds = profile.thresholds.map((t) => {
    const o = outcome(t.metric, t.expression);
    return { ...t, ok: o.ok, value: o.value, margin: o.margin };
  });
  const phases = profile.phases.map((p) => {
    const checks = selectSeries(h, `checks{phase:${p.name}}`);
    const latency = selectSeries(h, `http_req_duration{phase:${p.name}}`);
    const requests = selectSeries(h, `http_reqs{phase:${p.name}}`);
    const resendWaits = selectSeries(h, `fleetproof_resend_wait_ms{phase:${p.name}}`);
    // An arrival-rate phase runs as the scenario of its name (load/lib/options.js), and a run counts the arrivals
    // it could not start there, as the script's summary does; here every part's count adds up.
    const dropped = Object.hasOwn(RATE_PHASES, p.name) ? selectSeries(h, `dropped_iterations{scenario:${p.name}}`) : undefined;
    return {
      name: p.name,
      checks_ok: outcome(`checks{phase:${p.name}}`, profile.phase_checks).ok,
      checks: checks ? { passes: checks.nonZero, fails: checks.count - checks.nonZero } : { passes: 0, fails: 0 },
      latency_ms: latency && latency.count > 0 ? trendStats(latency) : null,
      requests: requests ? requests.sum.value() : 0,
      resend_wait_ms: resendWaits ? resendWaits.sum.value() : 0,
      dropped_iterations: dropped ? dropped.sum.value() : 0,
    };
  });
  const checkSeries = h.metrics.get('checks');
  const byName = new Map<string, { name: string; passes: number; fails: number }>();
  for (const s of checkSeries?.series.values() ?? []) {
    const name = s.tags['check'] ?? '';
    const c = byName.get(name) ?? { name, passes: 0, fails: 0 };
    c.passes += s.nonZero;
    c.fails += s.count - s.nonZero;
    byName.set(name, c);
  }
  const checks = [...byName.values()].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return { thresholds, phases, checks, thresholds_passed: thresholds.every((t) => t.ok) && phases.every((p) => p.checks_ok) };
}

export interface MergeOutcome {
  exitCode: 0 | 1 | 2 | 99;
  message: string;
  /** The stable code of the error that stopped the merge before its report (docs/exit-codes.md). */
  code?: HarnessErrorCode;
  outDir?: string;
  report?: MergedReport;
  histograms?: RunHistograms;
}

/** Merges what the parts measured and builds the one report of the run. */
export function buildMergedReport(
  parts: RunPart[],
  segments: (Segment | null)[],
  merged: RunHistograms,
  after?: AfterLoad,
  journal: Journal = mergeJournals(journalsOf(parts)),
  output: RunOutput | null = null,
  mergeCommand?: string,
): MergedReport {
  const run = merged.run;
  const mergedAt = Date.now();
  const evaluation = evaluateRun(merged);
  const overlap = partOverlap(
    parts.map((p) => p.histograms.run),
    run.profile,
  );
  const apart = overlapText(
    overlap,
    parts.map((p) => p.dir),
  );
  const summary: EngineSummary = {
    format: 'fleetproof-load-summary/v1',
    run_id: run.run_id,
    target: run.target ?? '',
    profile: {
      name: run.profile.name,
      format: run.profile.format,
      duration_s: run.profile.duration_s,
      ...profileJudging(run.profile),
      phases: run.profile.phases,
    },
    dataset: run.profile.dataset,
    thresholds_passed: evaluation.thresholds_passed,
    thresholds: evaluation.thresholds.map((t) =>
      apart.notJudged !== null && dependsOnCombinedRate(t.metric) ? { ...t, not_judged: apart.notJudged } : t,
    ),
    phases: evaluation.phases,
    checks: evaluation.checks,
    test_run_duration_ms: run.test_run_duration_ms,
  };
  const failedEngines = parts
    .map((p, k) => ({ k, code: p.report?.engine_exit_code ?? null }))
    // 99 is the instance's own threshold verdict, which the merge evaluates again globally.
    .filter((x) => x.code !== null && x.code !== 0 && x.code !== 99);
  const journals = journalsOf(parts);
  const withReport = parts.find((p) => p.report !== null)?.report ?? null;
  const environment = withReport
    ? { ...withReport.environment, target: { ...withReport.environment.target } }
    : captureEnvironment(
        { name: run.engine?.name === 'node-runner' ? 'node-runner' : 'k6', version: run.engine?.version ?? 'unknown' },
        run.target ?? 'unknown',
        null,
      );
  const report = buildLoadReport({
    summary,
    journal,
    audit: after ? after.audit : mergeAudits(parts),
    environment,
    engineExitCode: failedEngines[0]?.code ?? 0,
    engineError:
      [
        ...failedEngines.map((x) => `part ${x.k + 1} (${parts[x.k]!.dir}) exited with ${x.code}`),
        ...(after?.error ? [`the audit: ${after.error}`] : []),
      ].join('; ') || null,
    runId: run.run_id,
    profile: run.profile.name,
    overrides: run.profile.overrides,
    fitted: run.profile.fitted ?? [],
    dataset: run.profile.dataset,
    startedAt: new Date(run.started_at ?? mergedAt),
    finishedAt: new Date(run.finished_at ?? mergedAt),
    retirement: after?.retirement ?? null,
    breakpoint: breakpointCurve(merged, run.profile),
    overTime: output?.over_time ?? null,
    metrics: output?.metrics ?? [],
    // Each part's own command, then the merge: what reruns a distributed run.
    rerun: [...parts.map((p) => p.report?.rerun), mergeCommand].filter((c): c is string => c !== undefined).join('\n'),
    ...(withReport?.profile_info ? { profileSpec: { ...withReport.profile_info, thresholds: run.profile.thresholds } } : {}),
  });
  const notes: string[] = [];
  if (run.started_at === null || run.finished_at === null)
    notes.push('the parts do not record when they ran: the start and end shown are the time of the merge');
  if (after) notes.push('audited after the merge, over the routes of every part');
  if (apart.note !== null && hasRatePhases(run.profile)) notes.push(apart.note);
  const known = segments.filter((s): s is Segment => s !== null);
  let covered: string | null = null;
  if (known.length === segments.length) {
    covered = fractionText(coverage(known));
  } else {
    notes.push(
      `${segments.length - known.length} part(s) do not say which execution segment they ran; coverage of the test is not checked`,
    );
  }
  const unaudited = parts.filter((p) => !p.report?.audit).map((p) => p.dir);
  if (!after && unaudited.length > 0 && unaudited.length < parts.length) notes.push(`not audited: ${unaudited.join(', ')}`);
  if (journals.length < parts.length)
    notes.push(
      `${parts.length - journals.length} part(s) without a run journal: the nearest-rank figures and routes over time leave them out`,
    );
  if (report.verdict === 'pass' && report.reasons.length > 0) report.verdict = 'fail';
  return {
    ...report,
    merge: {
      parts: parts.map((p) => ({
        dir: p.dir,
        source: p.source,
        instances: p.histograms.run.instances,
        execution_segment: p.histograms.run.execution_segment,
        engine: p.histograms.run.engine,
        engine_exit_code: p.report?.engine_exit_code ?? null,
        audited: Boolean(p.report?.audit),
        points: pointsOf(p.histograms),
        test_run_duration_ms: p.histograms.run.test_run_duration_ms,
      })),
      coverage: covered,
      execution_segment: run.execution_segment,
      dimensions: merged.dimensions,
      test_run_duration_ms: run.test_run_duration_ms,
      overlap,
      scheme: SCHEME_TEXT,
      notes,
    },
  };
}

function journalsOf(parts: RunPart[]): Journal[] {
  return parts.map((p) => p.journal).filter((j): j is Journal => j !== null);
}

export interface MergeOptions {
  dirs: string[];
  outDir?: string;
  /**
   * Audits the target after the merge, over the joined journal of every
   * part, for the run `runId` (a distributed run's shared plan); throws
   * MergeRefusal when it belongs to another run.
   */
  audit?: (runId: string, journal: Journal) => Promise<AfterLoad>;
  /** Writes the merged report; summary.json alone unless the caller brings renderers. */
  writeReport?: ReportWriter<MergedReport>;
  /** The command that merges the parts again, for the report's rerun line. */
  rerun?: string;
}

export async function mergeRuns(o: MergeOptions): Promise<MergeOutcome> {
  let parts: RunPart[];
  let segments: (Segment | null)[];
  let merged: RunHistograms;
  let report: MergedReport;
  try {
    parts = [];
    for (const dir of o.dirs) parts.push(await readRunPart(dir));
    segments = checkParts(parts);
    merged = mergeParts(parts, segments);
    const journal = mergeJournals(journalsOf(parts));
    const after = o.audit ? await o.audit(merged.run.run_id, journal) : undefined;
    // The charts over time and the end-of-test table come from the parts' raw outputs, where they kept them.
    const raw: string[] = [];
    for (const p of parts) {
      const name = await rawOutputName(p.realDir);
      if (name) raw.push(join(p.realDir, name));
    }
    const output = await readRunOutput(raw, merged.run.test_run_duration_ms).catch(() => null);
    report = buildMergedReport(parts, segments, merged, after, journal, output, o.rerun);
  } catch (err) {
    return outcomeOf(err);
  }
  const outDir = o.outDir ?? defaultRunDir(`merged-${merged.run.run_id}`);
  const write: ReportWriter<MergedReport> = o.writeReport ?? writeSummary;
  const files = await write(outDir, report);
  // The merged histograms the figures were read from, themselves mergeable.
  await writeRunHistograms(join(outDir, HISTOGRAMS_FILE), merged);
  return {
    exitCode: loadExitCode(report),
    message: `${loadVerdictWords(report)}: ${report.profile} run ${report.run_id}, ${parts.length} part(s) merged; report ${files.html ?? files.json}`,
    outDir,
    report,
    histograms: merged,
  };
}
