// The Node runner: executes a k6 script where k6 is not installed, with the
// subset of k6 the fleetproof scripts use. Init (which reads `options`),
// setup, the scenarios on their executors, teardown, threshold evaluation
// and handleSummary follow k6's lifecycle; exit codes follow k6's (0
// passed, 99 thresholds failed, abortOnFail included, 107 script error, 108
// aborted by the script). Every VU lives in the runner's own thread
// (virtual-users.ts), so it runs async functions only: a scenario's
// function, setup or teardown not declared `async` is refused before any VU
// starts or setup runs, and a blocking call (http.get and its kind,
// http.batch, sleep) when it is reached. Either ends the run as a script
// error, which `fleetproof load` reports as could not run (exit 2).
import { createWriteStream, mkdirSync, writeFileSync, type WriteStream } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { FleetproofError } from '../../../client/errors.ts';
import { packageInfo } from '../../../client/provenance.ts';
import { runScenario, ScenarioRun, type ExecutorHost } from './executors.ts';
import { HttpService } from './http-service.ts';
import { JsonOutput } from './json-output.ts';
import { MetricStore, type Sample } from './metrics.ts';
import { ProgressReporter } from './progress.ts';
import { stageScript, type StagedScript } from './stage-script.ts';
import { parseDurationMs, peakInitialVus, scenariosOf, type ScenarioConfig } from './scenarios.ts';
import { ExecutionTuple, type SegmentChoice } from '../execution-segments.ts';
import { segmentScenarios } from './segmented-scenarios.ts';
import { SharedDeadlines } from './shared-deadlines.ts';
import { buildSummaryData } from './summary-data.ts';
import { checkAggregations, evaluateThresholds, parseThresholds, type ThresholdSet, type ThresholdVerdict } from './thresholds.ts';
import { LoadedScript, VirtualUser, VuPool, type IterationBind, type ScriptFacts, type VuSetup } from './virtual-users.ts';
import { peakArrivalRate, warmUp, WARM_UP_FROM_RATE } from './warm-up.ts';

export const NODE_RUNNER_NAME = 'node-runner';
export const NODE_RUNNER_VERSION: string = packageInfo().version;

export const EXIT = { ok: 0, thresholds: 99, scriptError: 107, aborted: 108 } as const;

export interface NodeEngineOptions {
  scriptPath: string;
  env?: Record<string, string>;
  /** File that receives the script's console output, one raw line each (k6 --console-output, --log-format raw). */
  consoleOutput?: string;
  /** File that receives every metric point in k6's JSON output format (k6 --out json=FILE). */
  metricsOutput?: string;
  /** This instance's share of a split test (k6 --execution-segment, --execution-segment-sequence). */
  segment?: SegmentChoice;
  /** Progress lines; defaults to the terminal. Pass () => {} to silence. */
  progress?: (line: string, final: boolean) => void;
  /** Stops the test (a stage out of its budget): iterations in flight are interrupted, no scenario starts, teardown runs. */
  signal?: AbortSignal;
}

export interface NodeEngineResult {
  exitCode: number;
  thresholds: ThresholdVerdict[];
  aborted: string | null;
  error: string | null;
  testRunDurationMs: number;
}

const DEFAULT_TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'];

const describe = (err: unknown) => (err instanceof Error ? err.stack || err.message : String(err));

export async function runWithNodeEngine(opts: NodeEngineOptions): Promise<NodeEngineResult> {
  const scriptPath = resolve(opts.scriptPath);
  const env = opts.env ?? {};
  let staged: StagedScript;
  try {
    staged = await stageScript(scriptPath);
  } catch (err) {
    return {
      exitCode: EXIT.scriptError,
      thresholds: [],
      aborted: null,
      error: `the script failed to load: ${(err as Error).message}`,
      testRunDurationMs: 0,
    };
  }
  const store = new MetricStore();
  let consoleFile: WriteStream | undefined;
  let consoleError: string | null = null;
  if (opts.consoleOutput) {
    mkdirSync(dirname(opts.consoleOutput), { recursive: true });
    consoleFile = createWriteStream(opts.consoleOutput);
    // A console file that cannot be written (a full disk) fails the run as the engine's error, never the process.
    consoleFile.on('error', (err) => (consoleError ??= `writing ${opts.consoleOutput}: ${err.message}`));
  }
  let jsonOutput: JsonOutput | undefined;
  // Every sample goes to the store and, when asked, to the JSON output: one list, so both hold the same points.
  const record = (samples: Sample[]) => {
    for (const s of samples) store.add(s);
    jsonOutput?.write(samples);
  };
  const scriptConsole = (level: string, text: string) => {
    if (consoleFile) consoleFile.write(text + '\n');
    else (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(text + '\n');
  };

  const http = new HttpService();
  let script: LoadedScript | undefined;
  let pool: VuPool | undefined;
  /** VU 0: runs setup, teardown and handleSummary. */
  let caller: VirtualUser | undefined;
  let error: string | null = null;
  let aborted: string | null = null;
  /** An abortOnFail threshold stopped the test: k6 exits 99 then, as for any failed threshold. */
  let thresholdAborted = false;
  /** The first blocking call a VU made: the test cannot run as written, and ends there. */
  let refused: string | null = null;
  /** Interrupts every iteration in flight; set while the scenarios run. */
  let interruptAll = () => {};
  let testStartedAt = 0;
  let durationMs = 0;
  let verdicts: ThresholdVerdict[] = [];
  const progress = new ProgressReporter(opts.progress);
  const stopIfRefused = () => {
    if (refused !== null) throw new FleetproofError('FP_ERR_SCRIPT', refused);
  };
  const stopWhenAsked = () => {
    const reason = opts.signal?.reason as Error | undefined;
    aborted ??= `stopped: ${reason?.message ?? 'asked to stop'}`;
    interruptAll();
  };
  if (opts.signal?.aborted) stopWhenAsked();
  else opts.signal?.addEventListener('abort', stopWhenAsked, { once: true });
  try {
    try {
      script = await LoadedScript.load({ scriptPath, modulePath: staged.path }, env, scriptConsole);
    } catch (err) {
      throw new Error(`the script failed to load: ${describe(err)}`);
    }
    const loaded = script;
    const facts = loaded.facts;
    // As in k6, the segment given on the command line is part of the options the script sees.
    const options: Record<string, unknown> = {
      ...facts.options,
      executionSegment: opts.segment?.segment ?? null,
      executionSegmentSequence: opts.segment?.sequence ?? null,
    };
    const everyScenario = scenariosOf(options);
    for (const s of everyScenario)
      if (!facts.functions.includes(s.exec)) throw new Error(`scenario ${s.name}: the script exports no function ${s.exec}`);
    refuseSynchronous(facts, everyScenario);
    const segmented = segmentScenarios(everyScenario, ExecutionTuple.of(opts.segment ?? null));
    const scenarios = segmented.map((s) => s.config);
    for (const m of facts.metrics) store.declare(m.name, m.type, m.time);
    declareBuiltins(store);
    const thresholds = parseThresholds(options['thresholds'] as Parameters<typeof parseThresholds>[0]);
    checkAggregations(thresholds, (m) => store.typeOf(m));
    if (opts.metricsOutput) {
      const byMetric = new Map<string, string[]>();
      for (const t of thresholds)
        if (t.selector.key === t.selector.metric)
          byMetric.set(
            t.selector.metric,
            t.expressions.map((e) => e.source),
          );
      jsonOutput = new JsonOutput(opts.metricsOutput, byMetric);
    }
    const trendStats = (options['summaryTrendStats'] as string[] | undefined) ?? DEFAULT_TREND_STATS;
    const testTags = (options['tags'] as Record<string, string> | undefined) ?? {};
    const setup: VuSetup = {
      options,
      testTags,
      systemTags: (options['systemTags'] as string[] | undefined) ?? null,
      testStartedAt: Date.now(),
      http,
      samples: record,
      refuse: (message) => {
        if (refused !== null) return;
        refused = message;
        interruptAll();
      },
    };
    pool = new VuPool((id) => new VirtualUser(id, loaded, setup));
    caller = new VirtualUser(0, loaded, setup);
    progress.stage('initialising VUs');
    pool.prepare(peakInitialVus(scenarios));
    if (peakArrivalRate(scenarios) >= WARM_UP_FROM_RATE) {
      progress.stage('warming up VUs');
      await warmUp(loaded, setup);
    }

    let setupData: unknown = null;
    if (facts.functions.includes('setup')) {
      progress.stage('setup');
      const r = await withTimeout(
        caller.call('setup', undefined, '::setup'),
        parseDurationMs(options['setupTimeout'] ?? '60s', 'setupTimeout'),
        'setup',
      );
      stopIfRefused();
      if (r.aborted) aborted = r.aborted;
      else if (r.error) throw new Error(`setup failed: ${r.error}`);
      setupData = r.result;
    }

    testStartedAt = Date.now();
    setup.testStartedAt = testStartedAt;
    for (const vu of [...pool.all, caller]) vu.startClock(testStartedAt);
    const runs = segmented.map((s) => new ScenarioRun(s.config, s.tuple));
    const deadlines = new SharedDeadlines(() => Date.now() - testStartedAt);
    interruptAll = () => deadlines.expireAll();
    /** Each scenario's part of its iterations, and the tags of their samples: one object per scenario, so the store keys them once. */
    const binds = new Map<ScenarioRun, { bind: IterationBind; tags: Record<string, string> }>(
      runs.map((run) => {
        const c = run.config;
        const scenario = { name: c.name, executor: c.executor, startTime: testStartedAt + c.startTimeMs, tags: c.tags };
        const tags = { ...testTags, ...c.tags, scenario: c.name, group: '' };
        return [run, { bind: { fn: c.exec, arg: setupData, scenario, group: '' }, tags }];
      }),
    );
    if (!aborted) {
      const p = pool;
      const host: ExecutorHost = {
        pool: p,
        now: () => Date.now() - testStartedAt,
        aborted: () => aborted !== null || refused !== null,
        dropped: (run) => {
          run.dropped++;
          record([
            {
              metric: 'dropped_iterations',
              type: 'counter',
              time: false,
              value: 1,
              tags: { ...run.config.tags, scenario: run.config.name },
              at: Date.now(),
            },
          ]);
        },
        iterate: async (vu, run, deadline) => {
          const n = run.nextIteration(vu);
          const { bind, tags } = binds.get(run)!;
          // The VU takes its number (exec.vu.iterationInInstance, from 0 as in k6) as the iteration starts.
          const running = vu.iterate(bind, {
            inScenario: n.inScenario,
            inInstance: n.inInstance,
            inTest: n.inTest,
            progress: run.progressAt(Date.now() - testStartedAt),
          });
          vu.iterationInInstance++;
          const outcome = await deadlines.race(running, deadline);
          if (outcome === 'interrupted') {
            run.interrupted++;
            vu.stop();
            return false;
          }
          // An iteration that threw is logged and the scenario goes on; one that aborted the test stops it.
          if (outcome.aborted) aborted = outcome.aborted;
          if (outcome.error) scriptConsole('error', `${run.config.name}: ${outcome.error.split('\n')[0]}`);
          const at = Date.now();
          record([
            { metric: 'iterations', type: 'counter', time: false, value: 1, tags, at },
            { metric: 'iteration_duration', type: 'trend', time: true, value: outcome.ms, tags, at },
          ]);
          run.completed++;
          return outcome.error === null;
        },
      };
      progress.start(
        runs,
        store,
        () => Date.now() - testStartedAt,
        () => p.active,
      );
      const watch = watchAbortOnFail(
        thresholds,
        store,
        () => Date.now() - testStartedAt,
        (reason) => {
          thresholdAborted ||= aborted === null;
          aborted ??= reason;
        },
      );
      await Promise.all(runs.map((run) => runScenario(host, run)));
      deadlines.clear();
      clearInterval(watch);
      progress.stop();
    }
    durationMs = Math.max(0, Date.now() - testStartedAt);
    stopIfRefused();

    if (facts.functions.includes('teardown')) {
      progress.stage('teardown');
      const r = await withTimeout(
        caller.call('teardown', setupData, '::teardown'),
        parseDurationMs(options['teardownTimeout'] ?? '60s', 'teardownTimeout'),
        'teardown',
      );
      stopIfRefused();
      if (r.error) scriptConsole('error', `teardown failed: ${r.error.split('\n')[0]}`);
    }
    verdicts = evaluateThresholds(thresholds, store, durationMs);
    const data = buildSummaryData({ store, thresholds, verdicts, trendStats, durationMs, setupData, options });
    if (facts.functions.includes('handleSummary')) {
      const r = await caller.call('handleSummary', data, '');
      stopIfRefused();
      if (r.error) throw new Error(`handleSummary failed: ${r.error}`);
      writeSummaryOutputs(r.result as Record<string, string>);
    } else {
      process.stdout.write(defaultSummary(verdicts));
    }
  } catch (err) {
    error = (err as Error).message;
  } finally {
    opts.signal?.removeEventListener('abort', stopWhenAsked);
    progress.stop();
    pool?.stopAll();
    caller?.stop();
    script?.unload();
    await staged.remove();
    await http.close();
    await new Promise<void>((r) => (consoleFile && !consoleFile.destroyed ? consoleFile.end(r) : r()));
    error ??= consoleError;
    await jsonOutput?.close().catch((err: Error) => (error ??= `writing ${opts.metricsOutput}: ${err.message}`));
  }
  const exitCode = error
    ? EXIT.scriptError
    : aborted && !thresholdAborted
      ? EXIT.aborted
      : verdicts.every((v) => v.ok)
        ? EXIT.ok
        : EXIT.thresholds;
  return { exitCode, thresholds: verdicts, aborted, error, testRunDurationMs: durationMs };
}

/**
 * A synchronous function's blocking calls would stop every VU of the
 * runner's thread, so a scenario's function, setup and teardown must be
 * declared `async`; any that is not is refused before anything runs.
 * handleSummary may stay synchronous: it does no I/O.
 */
function refuseSynchronous(facts: ScriptFacts, scenarios: ScenarioConfig[]): void {
  const roles = new Map<string, string[]>();
  for (const s of scenarios) roles.set(s.exec, [...(roles.get(s.exec) ?? []), `scenario ${s.name}`]);
  for (const fn of ['setup', 'teardown']) if (facts.functions.includes(fn)) roles.set(fn, roles.get(fn) ?? []);
  const synchronous = [...roles].filter(([fn]) => !facts.asyncFunctions.includes(fn));
  if (synchronous.length === 0) return;
  const named = synchronous.map(([fn, of]) => (of.length > 0 ? `${fn} (the function of ${of.join(', ')})` : fn));
  throw new FleetproofError(
    'FP_ERR_SCRIPT',
    `the Node runner runs async functions only, and ${named.join(', ')} ${named.length === 1 ? 'is' : 'are'} not declared async: declare ${named.length === 1 ? 'it' : 'them'} \`async\`, awaiting http.asyncRequest for requests and a k6/timers setTimeout for pauses, or run the script with --engine k6`,
  );
}

/** Thresholds with abortOnFail are evaluated every second once their delayAbortEval has passed. */
function watchAbortOnFail(
  thresholds: ThresholdSet[],
  store: MetricStore,
  elapsedMs: () => number,
  abort: (reason: string) => void,
): NodeJS.Timeout {
  const watched = thresholds
    .map((t) => ({ ...t, expressions: t.expressions.filter((e) => e.abortOnFail) }))
    .filter((t) => t.expressions.length > 0);
  const timer = setInterval(() => {
    const now = elapsedMs();
    const due = watched.map((t) => ({ ...t, expressions: t.expressions.filter((e) => now >= e.delayAbortEvalMs) }));
    for (const v of evaluateThresholds(due, store, now, true)) if (!v.ok) abort(`threshold ${v.key} ${v.source} failed`);
  }, 1000);
  timer.unref();
  return timer;
}

function declareBuiltins(store: MetricStore): void {
  for (const name of [
    'http_req_duration',
    'http_req_blocked',
    'http_req_connecting',
    'http_req_tls_handshaking',
    'http_req_sending',
    'http_req_waiting',
    'http_req_receiving',
    'iteration_duration',
    'group_duration',
  ]) {
    store.declare(name, 'trend', true);
  }
  for (const name of ['http_reqs', 'iterations', 'data_sent', 'data_received', 'dropped_iterations']) store.declare(name, 'counter', false);
  for (const name of ['checks', 'http_req_failed']) store.declare(name, 'rate', false);
  for (const name of ['vus', 'vus_max']) store.declare(name, 'gauge', false);
}

async function raceDeadline<T>(work: Promise<T>, remainingMs: number): Promise<T | 'interrupted'> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'interrupted'>((r) => (timer = setTimeout(() => r('interrupted'), Math.max(0, remainingMs))));
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  const r = await raceDeadline(work, ms);
  if (r === 'interrupted') throw new Error(`${what} exceeded its timeout of ${ms} ms`);
  return r;
}

/** handleSummary's map: stdout, stderr, or a file path (relative to the working directory). */
function writeSummaryOutputs(outputs: Record<string, string> | null): void {
  for (const [where, content] of Object.entries(outputs ?? {})) {
    const text = typeof content === 'string' ? content : JSON.stringify(content);
    if (where === 'stdout') process.stdout.write(text);
    else if (where === 'stderr') process.stderr.write(text);
    else {
      mkdirSync(dirname(resolve(where)), { recursive: true });
      writeFileSync(resolve(where), text);
    }
  }
}

function defaultSummary(verdicts: ThresholdVerdict[]): string {
  const lines = verdicts.map((v) => `  ${v.ok ? '✓' : '✗'} ${v.key}: ${v.source} (${v.value ?? 'n/a'})`);
  return lines.length ? `thresholds:\n${lines.join('\n')}\n` : '';
}
