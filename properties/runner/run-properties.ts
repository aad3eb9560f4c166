// The programmatic entry point of the property suites: runs the chosen
// suites against one target with one seed, and returns one result per suite
// — pass, fail (a counterexample: the violated property, the shrunk script,
// and the seed and path that replay it) or error (the suites could not judge:
// the target was unreachable, too many runs were indeterminate, the harness
// broke). The command line and the tests both call this.
import { RunsInFlight } from '../check/runs-in-flight.ts';
import { PropertyViolation, takeIndeterminateNotes, type PropertyName } from '../check/violations.ts';
import { SUITES, SUITE_NAMES, type SuiteName } from '../suites/index.ts';
import type { Target } from '../targets/target.ts';
import { formatReplayPath, parseReplayPath } from './replay-path.ts';
import { chooseSeed, describeSeed, type SeedChoice } from './seed.ts';
import { newRunId } from '../../client/run-id.ts';
import { FleetproofError } from '../../client/errors.ts';
import type { Budget } from '../../client/stage-budget.ts';
import { answerLimitOf } from '../../client/answer-limit.ts';

export type SuiteStatus = 'pass' | 'fail' | 'error';

export interface SuiteResult {
  name: SuiteName;
  /** The property the suite establishes. */
  property: PropertyName;
  status: SuiteStatus;
  runs: number;
  /** Runs that ended indeterminate (a timeout, unavailable storage) and so proved nothing. */
  indeterminateRuns: number;
  shrinks: number;
  durationMs: number;
  seed: number;
  /** Replays the counterexample with the same seed: `--seed S --path P`. */
  path: string | null;
  /** The property the counterexample violates; it may be another than the suite's own. */
  violation: { property: PropertyName; message: string } | null;
  /** The shrunk counterexample, one step per line. */
  counterexample: string[] | null;
  error: string | null;
}

export interface PropertiesResult {
  /** The run's id (client/run-id.ts), shared with the command or certification that ran the suites. */
  runId: string;
  /** The budget the suites ran under, and why they stopped before all had run, when they did. */
  budgetMs: number | null;
  unfinished: string | null;
  /** The largest answer read from a registry over HTTP (client/answer-limit.ts); null for an in-process store. */
  answerLimitBytes: number | null;
  target: { kind: Target['kind']; description: string };
  seed: SeedChoice;
  startedAt: string;
  finishedAt: string;
  suites: SuiteResult[];
}

export interface RunPropertiesOptions {
  target: Target;
  suites?: readonly SuiteName[];
  /** Runs per suite; each suite's default for the target otherwise. */
  runs?: number;
  seed?: number;
  /** A counterexample's path, to replay it; needs exactly one suite. */
  path?: string;
  /** Stops a suite after this long; it then reports an error rather than a verdict. */
  timeLimitMs?: number;
  /** The stage's budget: suites stop once it is spent, and those it stopped or never started report an error. */
  budget?: Budget;
  log?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  /** The id of the run these suites belong to; a fresh one otherwise. */
  runId?: string;
  /**
   * Asked after a counterexample or an error: null while the target still
   * answers and accepts the run's tokens, else why it does not, which turns
   * the suite's failure into an error (no evidence about the registry) and
   * names the cause of an error.
   */
  stillJudgeable?: () => Promise<string | null>;
  /** Told as suites and their runs go, to show how far the run is; the per-suite log lines are left to it then. */
  progress?: PropertiesProgress;
}

/** What a progress display learns of a run of the suites. */
export interface PropertiesProgress {
  planned(suites: { name: SuiteName; runs: number }[]): void;
  suiteStarted(name: SuiteName): void;
  /** A run of the current suite opened a run on the target: fast-check started a generated case (or a shrink). */
  runStarted(): void;
  suiteFinished(result: SuiteResult): void;
  finished(): void;
}

export class RunnerUsageError extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_USAGE', message, options);
  }
}

function selectSuites(options: RunPropertiesOptions, env: NodeJS.ProcessEnv): { suites: readonly SuiteName[]; path: string | undefined } {
  const suites = options.suites && options.suites.length > 0 ? options.suites : SUITE_NAMES;
  // FC_PATH replays one suite's counterexample, named by FC_SUITE (or the only suite selected).
  const envPath = env['FC_PATH'] && (!env['FC_SUITE'] || suites.includes(env['FC_SUITE'] as SuiteName)) ? env['FC_PATH'] : undefined;
  const path = options.path ?? envPath;
  if (path === undefined) return { suites, path };
  const only = options.path === undefined && env['FC_SUITE'] ? [env['FC_SUITE'] as SuiteName] : suites;
  if (only.length !== 1) throw new RunnerUsageError('a path replays one suite’s counterexample: name exactly one suite');
  return { suites: only, path };
}

/** The errors of suites a budget cut short, by the stage whose budget it was (properties, or faults). */
const stoppedByBudget = (budget: Budget) => `no verdict: the ${budget.stage} stage ran out of its budget while this suite ran`;
const notStarted = (budget: Budget) => `not run: the ${budget.stage} stage ran out of its budget before this suite started`;

function errorText(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}${err.cause instanceof Error ? ` (${err.cause.message})` : ''}`;
  return String(err);
}

async function runSuite(name: SuiteName, options: RunPropertiesOptions, seed: number, path: string | undefined): Promise<SuiteResult> {
  const suite = SUITES[name];
  const replay = path === undefined ? undefined : parseReplayPath(path);
  const runs = options.runs ?? suite.defaultRuns[options.target.kind];
  const started = performance.now();
  const base = {
    name,
    property: suite.property,
    seed,
    runs: 0,
    indeterminateRuns: 0,
    shrinks: 0,
    path: null,
    violation: null,
    counterexample: null,
    error: null,
  };
  takeIndeterminateNotes();
  const inFlight = new RunsInFlight();
  const built = suite.build(options.target, { runs: inFlight, ...(replay?.commands !== undefined ? { replayPath: replay.commands } : {}) });
  const budgetLeft = options.budget?.remainingMs() ?? Infinity;
  const limit = Math.min(options.timeLimitMs ?? Infinity, budgetLeft);
  // fast-check may stop at the limit a moment before the budget's own timer says it is spent: the budget stopped it when its limit was the budget's.
  const limitIsTheBudget = options.budget !== undefined && budgetLeft <= (options.timeLimitMs ?? Infinity);
  const details = await built.check({
    seed,
    numRuns: runs,
    ...(replay ? { path: replay.path } : {}),
    ...(Number.isFinite(limit) ? { interruptAfterTimeLimit: limit, markInterruptAsFailure: true } : {}),
  });
  // A run the time limit cut off is still going: nothing else meets the registry until it has stopped.
  await inFlight.settle();
  if (details.interrupted && limitIsTheBudget) options.budget!.exhaust();
  const notes = takeIndeterminateNotes();
  const common = {
    ...base,
    runs: details.numRuns,
    indeterminateRuns: details.numSkips,
    shrinks: details.numShrinks,
    durationMs: Math.round(performance.now() - started),
  };
  if (!details.failed) return { ...common, status: 'pass' };
  // Stopped before a counterexample: no verdict. One found before the stop stands, shrunk as far as it got.
  if (details.interrupted && details.counterexample === null)
    return {
      ...common,
      status: 'error',
      error: limitIsTheBudget ? stoppedByBudget(options.budget!) : `stopped after the time limit of ${options.timeLimitMs} ms`,
    };
  if (details.counterexample === null) {
    return {
      ...common,
      status: 'error',
      error: `too many runs were indeterminate to judge the property (${details.numSkips}); first: ${notes[0] ?? 'unknown'}`,
    };
  }
  const counterexample = built.render(details.counterexample);
  const replayPath = formatReplayPath({
    path: details.counterexamplePath!,
    ...(built.replayPathOf(details.counterexample) ? { commands: built.replayPathOf(details.counterexample)! } : {}),
  });
  const err = details.errorInstance;
  if (PropertyViolation.is(err)) {
    return { ...common, status: 'fail', path: replayPath, violation: { property: err.property, message: err.detail }, counterexample };
  }
  return { ...common, status: 'error', path: replayPath, counterexample, error: errorText(err) };
}

export async function runProperties(options: RunPropertiesOptions): Promise<PropertiesResult> {
  const env = options.env ?? process.env;
  const log = options.log ?? (() => {});
  const { suites, path } = selectSuites(options, env);
  const seed = chooseSeed(options.seed, env);
  const startedAt = new Date().toISOString();
  const runId = options.runId ?? newRunId(new Date(startedAt));
  log(`fleetproof properties ${runId} against ${options.target.description}, ${describeSeed(seed)}`);
  const results: SuiteResult[] = [];
  const started = performance.now();
  const progress = options.progress;
  const counting = progress ? { ...options, target: runsCounted(options.target, progress) } : options;
  progress?.planned(
    suites.map((name) => ({ name, runs: path === undefined ? (options.runs ?? SUITES[name].defaultRuns[options.target.kind]) : 1 })),
  );
  try {
    for (const [index, name] of suites.entries()) {
      if (options.budget?.spent) {
        const skipped = { ...notRun(name, seed.seed), error: notStarted(options.budget) };
        results.push(skipped);
        progress?.suiteFinished(skipped);
        continue;
      }
      progress?.suiteStarted(name);
      let result = await runSuite(name, counting, seed.seed, path);
      // Requests the budget called off leave runs indeterminate: the suite stopped, it did not fail to judge on its own.
      if (options.budget?.spent && result.status === 'error' && result.path === null)
        result = { ...result, error: stoppedByBudget(options.budget) };
      const problem = result.status !== 'pass' && options.stillJudgeable ? await options.stillJudgeable() : null;
      if (problem !== null)
        result = {
          ...result,
          status: 'error',
          error: `no verdict: after this suite ${problem} (${result.violation ? `its counterexample: ${result.violation.message}` : result.error})`,
        };
      results.push(result);
      if (progress) progress.suiteFinished(result);
      else log(`[${index + 1}/${suites.length}] ${summaryLine(result)}  (${((performance.now() - started) / 1000).toFixed(1)} s elapsed)`);
    }
  } finally {
    progress?.finished();
  }
  const budget = options.budget;
  const outstanding = budget
    ? results.filter((r) => r.error === notStarted(budget) || r.error === stoppedByBudget(budget)).map((r) => r.name)
    : [];
  return {
    runId,
    budgetMs: options.budget?.ms ?? null,
    answerLimitBytes: options.target.kind === 'http' ? answerLimitOf(options.target.limits) : null,
    unfinished: options.budget?.spent ? options.budget.spentError(outstanding).message : null,
    target: { kind: options.target.kind, description: options.target.description },
    seed,
    startedAt,
    finishedAt: new Date().toISOString(),
    suites: results,
  };
}

function notRun(name: SuiteName, seed: number): SuiteResult {
  const suite = SUITES[name];
  return {
    name,
    property: suite.property,
    status: 'error',
    runs: 0,
    indeterminateRuns: 0,
    shrinks: 0,
    durationMs: 0,
    seed,
    path: null,
    violation: null,
    counterexample: null,
    error: null,
  };
}

/** The target, telling the progress each time a suite opens a run on it. */
function runsCounted(target: Target, progress: PropertiesProgress): Target {
  return {
    kind: target.kind,
    description: target.description,
    manualClock: target.manualClock,
    limits: target.limits,
    openRun: () => (progress.runStarted(), target.openRun()),
    close: () => target.close(),
  };
}

export function summaryLine(r: SuiteResult): string {
  const skipped = r.indeterminateRuns > 0 ? `, ${r.indeterminateRuns} indeterminate` : '';
  return `${r.status.padEnd(5)} ${r.name.padEnd(22)} ${String(r.runs).padStart(4)} runs${skipped}, ${(r.durationMs / 1000).toFixed(1)} s`;
}

/** Exit code: 1 when any suite found a counterexample, else 2 when any could not run, else 0. */
export function exitCodeOf(result: PropertiesResult): 0 | 1 | 2 {
  if (result.suites.some((s) => s.status === 'fail')) return 1;
  if (result.suites.some((s) => s.status === 'error')) return 2;
  return 0;
}
