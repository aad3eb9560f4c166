// The faults stage: every property suite runs over HTTP while a nemesis
// breaks the registry (the proxy always; the embedded reference's own
// faults when it is the target; the vendor's commands when given). A call
// the proxy reset before forwarding is a definite failure (its ledger
// knows); a call whose answer was lost, timed out or was
// STORAGE_UNAVAILABLE is indeterminate, and the suites read the truth back
// through the API to decide whether it took effect. Rounds repeat until
// enough faults fell inside them, bounded in rounds and time. Then the
// faults stop, the registry is given a recovery window, and a sweep over
// the whole stage's history settles what it still holds and judges it. All
// of it runs within the stage's budget (faults-budget.ts): spent, the
// requests in flight are called off, the faults end, and the stage could not
// judge, naming the round or the sweep it had not finished.
import { join } from 'node:path';
import { mkdir, writeFile } from 'node:fs/promises';
import type { NemesisRequest } from '../nemesis/open-nemesis.ts';
import { callFaultsOf, withNemesis } from '../nemesis/open-nemesis.ts';
import { replayFlags } from '../nemesis/nemesis-summary.ts';
import { resultDocument, type ResultDocument } from '../../properties/runner/result-document.ts';
import { runProperties, type PropertiesResult, type SuiteResult } from '../../properties/runner/run-properties.ts';
import { httpTarget, type HttpTarget } from '../../properties/targets/http-target.ts';
import type { Op } from '../../properties/check/history.ts';
import type { OwnOutage } from '../../properties/targets/http/call-outcomes.ts';
import type { Target } from '../../properties/targets/target.ts';
import type { FaultProxy } from '../nemesis/fault-proxy.ts';
import type { SweepResult } from '../../reports/schemas/faults-result.ts';
import { globalBaseline, quietBeforeSweepMs, sweep } from '../nemesis/sweep.ts';
import { waitUntilReady } from '../nemesis/ready.ts';
import { SUITE_NAMES, type SuiteName } from '../../properties/suites/index.ts';
import type { Failure } from '../../reports/schemas/certification-result.ts';
import { FAULTS_SCHEMA, type FaultsDocument } from '../../reports/schemas/faults-result.ts';
import { PROPERTY_CLAUSES } from '../property-clauses.ts';
import { faultsStatus } from '../verdict.ts';
import { Budget, BudgetSpent } from '../../client/stage-budget.ts';
import { faultsBudgetMs } from './faults-budget.ts';
import { faultsProgress, type FaultsProgress } from './faults-progress.ts';
import { elapsed, stageRecheck, type ClauseEvidence, type StageContext, type StageOutput } from './stage.ts';

/**
 * Every suite: the model-based ones read back what an indeterminate write
 * did, the contention ones keep it out of their certain holds.
 */
export const FAULT_SUITES: readonly SuiteName[] = SUITE_NAMES;
/** Runs per suite and round unless asked: enough to span faults, few enough that rounds end. */
const RUNS_PER_ROUND = 4;
/**
 * What surviving faults establishes beyond the suites' own clauses: storage
 * failures change nothing they should not, the registry says when it is ready
 * again, and every answer the faults took away was read back and found to
 * have taken effect once or not at all, its retries converging.
 */
export const FAULT_CLAUSES = ['failure-storage', 'ops-ready', 'failure-indeterminate'] as const;

export interface FaultsStageOptions {
  nemesis: NemesisRequest;
  /** Runs per suite and round; each suite's default otherwise. */
  runs?: number;
  suites?: readonly SuiteName[];
  /** Rounds go on until this many faults were injected… */
  minFaults?: number;
  /** …but no more rounds than this… */
  maxRounds?: number;
  /** …unless rounds must go on for at least this long (a soak under faults). */
  minDurationMs?: number;
  /** Round n runs with seed + n - 1; a random seed per round otherwise. */
  seed?: number;
}

const STATUS_OF = { pass: 'pass', fail: 'fail', error: 'error' } as const;
const DEFAULT_MAX_ROUNDS = 10;
/** With a soak, rounds are bounded by its time (and the budget), not by a count. */
const maxRoundsOf = (o: FaultsStageOptions) => o.maxRounds ?? (o.minDurationMs ? 10_000 : DEFAULT_MAX_ROUNDS);
const DISTURBED_KEPT = 200;

const READY_BEFORE_RUN_MS = 120_000;

interface Rounds {
  /** The last round's result: the first that did not pass, or the last of passing ones. */
  result: PropertiesResult;
  rounds: number;
  /** Over every round. */
  runs: number;
  indeterminateRuns: number;
}

/** After the faults, the registry is ready again; then it is left alone at least this long before the sweep reads it. */
const RECOVERY_WINDOW_MS = 1000;

async function rounds(
  ctx: StageContext,
  o: FaultsStageOptions,
  http: HttpTarget,
  bands: readonly unknown[],
  progress: FaultsProgress,
  budget: Budget,
): Promise<Rounds> {
  // A run starts once the registry says it is ready, so an outage ends the
  // runs it catches instead of spinning through runs that cannot begin.
  const target: Target = {
    ...http,
    openRun: async () => (await waitUntilReady(ctx.targetUrl, READY_BEFORE_RUN_MS), http.openRun()),
    close: async () => {},
  };
  // As the properties stage does: a suite that fails while the target is gone or refuses the run's tokens could
  // not judge. Asked on the direct URL once the registry is ready again, so a fault still in effect is not taken
  // for the setup's problem.
  const recheck = stageRecheck(ctx);
  const stillJudgeable = async (): Promise<string | null> => {
    try {
      await waitUntilReady(ctx.targetUrl, READY_BEFORE_RUN_MS);
    } catch (err) {
      return `the target did not answer GET /ready again: ${(err as Error).message}`;
    }
    return recheck();
  };
  let round = 0;
  let runs = 0;
  let indeterminateRuns = 0;
  let result: PropertiesResult;
  const started = performance.now();
  const more = () => !budget.spent && (bands.length < (o.minFaults ?? 3) || performance.now() - started < (o.minDurationMs ?? 0));
  const maxRounds = maxRoundsOf(o);
  do {
    round++;
    progress.roundNote(`faults: round ${round}, ${bands.length} fault(s) so far`);
    result = await runProperties({
      target,
      suites: o.suites ?? FAULT_SUITES,
      log: progress.roundNote,
      progress: progress.round(round, bands),
      runId: ctx.runId,
      runs: o.runs ?? RUNS_PER_ROUND,
      stillJudgeable,
      budget,
      ...(o.seed !== undefined ? { seed: o.seed + round - 1 } : {}),
    });
    runs += result.suites.reduce((n, s) => n + s.runs, 0);
    indeterminateRuns += result.suites.reduce((n, s) => n + s.indeterminateRuns, 0);
    // A counterexample found before the budget ran out stands, as in the properties stage; without one, nothing was judged.
    if (budget.spent && !result.suites.some((s) => s.status === 'fail')) {
      const outstanding = result.suites.filter((s) => s.status === 'error').map((s) => `${s.name} (round ${round})`);
      throw budget.spentError(outstanding);
    }
    if (result.suites.some((s) => s.status !== 'pass')) break;
  } while (more() && round < maxRounds);
  return { result, rounds: round, runs, indeterminateRuns };
}

interface UnderFaults extends Rounds {
  /** Null when the budget ran out with a counterexample found. */
  sweep: SweepResult | null;
  calls: HttpTarget['store']['tally'];
}

/** Opening the target reads /version through the proxy, which may already be faulted: try again for a while. */
async function opened(open: () => Promise<HttpTarget>): Promise<HttpTarget> {
  const started = performance.now();
  for (;;) {
    try {
      return await open();
    } catch (err) {
      if (performance.now() - started > READY_BEFORE_RUN_MS) throw err;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** The rounds under the nemesis, then (faults ended, registry ready, a quiet moment) the sweep of the whole history. */
async function roundsAndSweep(
  ctx: StageContext,
  o: FaultsStageOptions,
  url: string,
  endFaults: () => Promise<void>,
  bands: readonly unknown[],
  proxy: FaultProxy | null,
  outage: OwnOutage,
  progress: FaultsProgress,
  budget: Budget,
): Promise<UnderFaults> {
  const history: Op[] = [];
  const faults = callFaultsOf(proxy, outage, history);
  const http = await opened(() =>
    httpTarget({ url, key: ctx.key, runId: ctx.runId, ...(ctx.auth ? { auth: ctx.auth } : {}), faults, signal: budget.signal }),
  );
  try {
    const baseline = await globalBaseline(http.store);
    const done = await rounds(ctx, o, http, bands, progress, budget);
    await endFaults();
    // Spent with a counterexample in hand: it is the verdict; the sweep the budget left no time for does not run.
    if (budget.spent) return { ...done, sweep: null, calls: { ...http.store.tally } };
    await waitUntilReady(ctx.targetUrl, READY_BEFORE_RUN_MS);
    await new Promise((resolve) => setTimeout(resolve, quietBeforeSweepMs(history, performance.now(), RECOVERY_WINDOW_MS)));
    ctx.log(`faults: sweeping ${history.length} recorded operation(s)`);
    const swept = await sweep(http.store, history, baseline);
    if (budget.spent) throw budget.spentError([`the sweep of ${history.length} recorded operation(s)`]);
    return { ...done, sweep: swept, calls: { ...http.store.tally } };
  } catch (err) {
    // Whatever a spent budget called off failed for that reason: say so, not what the call-off looked like.
    if (budget.spent && !(err instanceof BudgetSpent)) throw budget.spentError([`what was running at the end (${(err as Error).message})`]);
    throw err;
  } finally {
    await http.close();
  }
}

export async function faultsStage(stage: StageContext, o: FaultsStageOptions): Promise<StageOutput> {
  const started = performance.now();
  const progress = faultsProgress(o, stage.log);
  // The stage's lines print above its bar.
  const ctx: StageContext = { ...stage, log: progress.note };
  const replay = replayFlags(o.nemesis.kinds, o.nemesis.schedule, o.nemesis.seed);
  const budget = new Budget(
    'faults',
    stage.budgets?.faults ??
      faultsBudgetMs({
        suites: o.suites ?? FAULT_SUITES,
        runs: o.runs ?? RUNS_PER_ROUND,
        maxRounds: maxRoundsOf(o),
        ...(o.minDurationMs ? { minDurationMs: o.minDurationMs } : {}),
      }),
  );
  let doc: FaultsDocument;
  let properties: ResultDocument | null = null;
  let suites: SuiteResult[] = [];
  let totals = { rounds: 0, runs: 0, indeterminateRuns: 0 };
  try {
    const under = await withNemesis(o.nemesis, ctx.targetUrl, ctx.log, (url, endFaults, bands, proxy, outage) =>
      roundsAndSweep(ctx, o, url, endFaults, bands, proxy, outage, progress, budget),
    );
    totals = under.value;
    suites = under.value.result.suites;
    properties = await resultDocument(
      under.value.result,
      (s) => `npx fleetproof properties ${ctx.targetFlags} --suite ${s.name} --seed=${s.seed} --path '${s.path}'`,
    );
    const noFaults = under.bands.length === 0 ? 'no fault fell inside the suites: the stage exercised nothing' : null;
    doc = {
      schema: FAULTS_SCHEMA,
      kinds: [...o.nemesis.kinds],
      replay,
      budget_ms: budget.ms,
      bands: under.bands,
      figures: under.figures,
      traffic: under.proxy?.traffic() ?? [],
      disturbed: (under.proxy?.ledger ?? [])
        .slice(0, DISTURBED_KEPT)
        .map(({ at, fate, method, path, status }) => ({ at: Math.round(at), fate, method, path, status })),
      error: noFaults,
      properties,
      sweep: under.value.sweep,
      calls: under.value.calls,
    };
  } catch (err) {
    doc = {
      schema: FAULTS_SCHEMA,
      kinds: [...o.nemesis.kinds],
      replay,
      budget_ms: budget.ms,
      bands: [],
      figures: {
        faults: 0,
        by_fault: {},
        recovery_ms_max: null,
        recovery_ms_median: null,
        forwarded: 0,
        reset_before_forward: 0,
        lost_after_forward: 0,
      },
      traffic: [],
      disturbed: [],
      error: (err as Error).message,
      properties,
      sweep: null,
      calls: null,
    };
  } finally {
    budget.stop();
    progress.end();
  }
  await mkdir(join(ctx.out, 'faults'), { recursive: true });
  await writeFile(join(ctx.out, 'faults', 'result.json'), JSON.stringify(doc, null, 2) + '\n');
  const status = faultsStatus(doc);
  // Each of the stage's own clauses by what judges it, not by the stage as a whole: a suite's counterexample
  // is its own clause's. The sweep judges storage failures and indeterminate answers (a violation it read
  // back fails them whatever else went wrong); a sweep at all means the registry said it was ready again.
  const judgedNothing = doc.error !== null || doc.sweep === null;
  const swept: ClauseEvidence['status'] = (doc.sweep?.violations.length ?? 0) > 0 ? 'fail' : judgedNothing ? 'error' : 'pass';
  const ready: ClauseEvidence['status'] = judgedNothing ? 'error' : 'pass';
  const statusOf: Record<(typeof FAULT_CLAUSES)[number], ClauseEvidence['status']> = {
    'failure-storage': swept,
    'failure-indeterminate': swept,
    'ops-ready': ready,
  };
  const evidence: ClauseEvidence[] = [
    ...suites.flatMap((s) =>
      PROPERTY_CLAUSES[s.name].map((clause) => ({
        clause,
        kind: 'property' as const,
        id: `${s.name} under faults`,
        status: STATUS_OF[s.status],
      })),
    ),
    ...FAULT_CLAUSES.map((clause) => ({
      clause,
      kind: 'property' as const,
      id: clause === 'ops-ready' ? 'faults stage: ready after the faults' : 'faults stage: sweep after the faults',
      status: statusOf[clause],
    })),
  ];
  const failures: Failure[] = suites
    .filter((s) => s.status !== 'pass')
    .map((s) => ({
      stage: 'faults',
      subject: s.name,
      clause: PROPERTY_CLAUSES[s.name][0] ?? null,
      message: s.violation
        ? `${s.violation.property} under faults: ${s.violation.message}`
        : `could not judge under faults: ${s.error ?? 'unknown'}`,
      reproduce: [
        `npx fleetproof properties ${ctx.targetFlags} --suite ${s.name} --seed=${s.seed} ${replay}`,
        ...(s.counterexample ?? []),
      ].join('\n'),
    }));
  const sweepViolations = doc.sweep?.violations ?? [];
  failures.push(
    ...sweepViolations.map((message): Failure => ({
      stage: 'faults',
      subject: 'sweep after the faults',
      clause: 'failure-storage',
      message,
      reproduce: `npx fleetproof certify ${ctx.targetFlags} ${replay}${o.seed !== undefined ? ` (suite seed ${o.seed})` : ''}`,
    })),
  );
  const reasons = [
    ...(doc.error ? [doc.error] : []),
    ...suites
      .filter((s) => s.status !== 'pass')
      .map((s) => `${s.name}: ${s.status === 'fail' ? 'counterexample under faults' : 'could not judge under faults'}`),
    ...(sweepViolations.length > 0 ? [`the sweep after the faults found ${sweepViolations.length} violation(s)`] : []),
  ];
  const f = doc.figures;
  return {
    record: {
      name: 'faults',
      status,
      reasons,
      duration_ms: elapsed(started),
      result_file: 'faults/result.json',
      figures: {
        faults: f.faults,
        rounds: totals.rounds,
        runs: totals.runs,
        indeterminate_runs: totals.indeterminateRuns,
        requests: f.forwarded + f.reset_before_forward,
        lost_responses: f.lost_after_forward,
        resets: f.reset_before_forward,
        recovery_ms_max: f.recovery_ms_max ?? '-',
        recovery_ms_median: f.recovery_ms_median ?? '-',
        ops_swept: doc.sweep?.ops ?? 0,
        indeterminate_ops: doc.sweep?.indeterminate ?? 0,
        not_forwarded_ops: doc.sweep?.not_forwarded ?? 0,
        settled_by_sweep: doc.sweep?.settled_by_sweep ?? 0,
      },
    },
    evidence,
    failures,
  };
}
