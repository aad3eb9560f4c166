// The Node runner: executes a k6 script where k6 is not installed, with the
// subset of k6 the fleetproof scripts use. Init (VU 0 reads `options`),
// setup, the scenarios on their executors, teardown, threshold evaluation
// and handleSummary follow k6's lifecycle; exit codes follow k6's (0 passed,
// 99 thresholds failed, abortOnFail included, 107 script error, 108 aborted
// by the script). Synchronous functions run on VU threads (vu-pool.ts),
// async ones on async VUs in this thread (local-vus.ts).
import { createWriteStream, mkdirSync, writeFileSync, type WriteStream } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { packageInfo } from '../../../client/provenance.ts';
import { runScenario, ScenarioRun, START_LEAD_MS, type ExecutorHost } from './executors.ts';
import { HttpService } from './http-service.ts';
import { JsonOutput } from './json-output.ts';
import { LocalScript, LocalVu, LocalVuPool, type LocalVuSetup } from './local-vus.ts';
import { MetricStore, type Sample } from './metrics.ts';
import { ProgressReporter } from './progress.ts';
import { stageScript, type StagedScript } from './stage-script.ts';
import { parseDurationMs, peakInitialVus, scenariosOf } from './scenarios.ts';
import { ExecutionTuple, type SegmentChoice } from '../execution-segments.ts';
import { segmentScenarios } from './segmented-scenarios.ts';
import { SharedDeadlines } from './shared-deadlines.ts';
import { buildSummaryData } from './summary-data.ts';
import { checkAggregations, evaluateThresholds, parseThresholds, type ThresholdSet, type ThresholdVerdict } from './thresholds.ts';
import { VirtualUser, VuPool, type IterationBind } from './vu-pool.ts';
import { peakArrivalRate, warmUp, warmUpLocal, WARM_UP_FROM_RATE } from './warm-up.ts';

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
}

export interface NodeEngineResult {
  exitCode: number;
  thresholds: ThresholdVerdict[];
  aborted: string | null;
  error: string | null;
  testRunDurationMs: number;
}

const DEFAULT_TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'];

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
  const sinks = {
    samples: record,
    console: (level: string, text: string) => {
      if (consoleFile) consoleFile.write(text + '\n');
      else (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(text + '\n');
    },
  };

  // The init VU reads options before any other VU exists, as in k6; the HTTP
  // service is rebuilt with the options' batch limits once they are known,
  // and the init VU always uses the current one.
  let http = new HttpService({});
  const script = { scriptPath, modulePath: staged.path };
  // The init VU runs no iterations: nobody looks at its cells unasked.
  const unwatched = { cells: new Int32Array(new SharedArrayBuffer(8)), base: Date.now() };
  const initVu = new VirtualUser(0, script, env, { all: (r, cancel) => http.all(r, cancel) } as HttpService, sinks, unwatched, () => {});
  let pool: VuPool | undefined;
  let localScript: LocalScript | undefined;
  let localPool: LocalVuPool | undefined;
  /** Runs setup, teardown and handleSummary when the script declares them async. */
  let localCaller: LocalVu | undefined;
  let error: string | null = null;
  let aborted: string | null = null;
  /** An abortOnFail threshold stopped the test: k6 exits 99 then, as for any failed threshold. */
  let thresholdAborted = false;
  let testStartedAt = 0;
  let durationMs = 0;
  let verdicts: ThresholdVerdict[] = [];
  const progress = new ProgressReporter(opts.progress);
  try {
    const facts = await initVu.ready;
    // As in k6, the segment given on the command line is part of the options the script sees.
    const options: Record<string, unknown> = {
      ...facts.options,
      executionSegment: opts.segment?.segment ?? null,
      executionSegmentSequence: opts.segment?.sequence ?? null,
    };
    const segmented = segmentScenarios(scenariosOf(options), ExecutionTuple.of(opts.segment ?? null));
    const scenarios = segmented.map((s) => s.config);
    for (const s of scenarios)
      if (!facts.functions.includes(s.exec)) throw new Error(`scenario ${s.name}: the script exports no function ${s.exec}`);
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
    http = new HttpService({ batch: options['batch'] as number | undefined, batchPerHost: options['batchPerHost'] as number | undefined });
    const configure = {
      type: 'configure',
      options,
      testTags: (options['tags'] as Record<string, string> | undefined) ?? {},
      systemTags: (options['systemTags'] as string[] | undefined) ?? null,
      testStartedAt: Date.now(),
    };
    initVu.send(configure);
    const isAsync = (fn: string) => facts.asyncFunctions.includes(fn);
    const threadScenarios = scenarios.filter((s) => !isAsync(s.exec));
    const asyncScenarios = scenarios.filter((s) => isAsync(s.exec));
    const ids = { next: 1 };
    pool = new VuPool((id, clock, onWake) => {
      const vu = new VirtualUser(id, script, env, http, sinks, clock, onWake);
      void vu.ready.then(() => vu.send({ ...configure, testStartedAt }));
      return vu;
    }, ids);
    const localSetup: LocalVuSetup = { ...configure, http, samples: record, console: sinks.console };
    if (facts.asyncFunctions.length > 0) {
      localScript = await LocalScript.load(script, env);
      const loaded = localScript;
      localPool = new LocalVuPool((id) => new LocalVu(id, loaded, localSetup), ids);
      localCaller = new LocalVu(0, loaded, localSetup);
    }
    progress.stage('initialising VUs');
    await pool.prepare(peakInitialVus(threadScenarios));
    localPool?.prepare(peakInitialVus(asyncScenarios));
    if (peakArrivalRate(threadScenarios) >= WARM_UP_FROM_RATE) {
      progress.stage('warming up VUs');
      await warmUp(pool.all, http);
    }
    if (localScript && peakArrivalRate(asyncScenarios) >= WARM_UP_FROM_RATE) {
      progress.stage('warming up async VUs');
      await warmUpLocal(localScript, localSetup);
    }
    /** setup, teardown and handleSummary run on VU 0: its thread, or an async VU when the script declares them async. */
    const callOutside = (fn: string, arg: unknown, group: string) =>
      (isAsync(fn) && localCaller ? localCaller : initVu).call(fn, arg, group);

    let setupData: unknown = null;
    if (facts.functions.includes('setup')) {
      progress.stage('setup');
      const r = await withTimeout(
        callOutside('setup', undefined, '::setup'),
        parseDurationMs(options['setupTimeout'] ?? '60s', 'setupTimeout'),
        'setup',
      );
      if (r.aborted) aborted = r.aborted;
      else if (r.error) throw new Error(`setup failed: ${r.error}`);
      setupData = r.result;
    }

    // The clock starts a moment after the VUs are told its start, so that telling them, and handing
    // the VUs of arrival-rate scenarios that start with the test their boards, is done before the
    // first arrival is due (executors.ts).
    testStartedAt = Date.now() + START_LEAD_MS;
    for (const vu of [initVu, ...pool.all]) vu.send({ ...configure, testStartedAt });
    localSetup.testStartedAt = testStartedAt;
    for (const vu of [...(localPool?.all ?? []), ...(localCaller ? [localCaller] : [])]) vu.startClock(testStartedAt);
    const runs = segmented.map((s) => new ScenarioRun(s.config, s.tuple));
    const deadlines = new SharedDeadlines(() => Date.now() - testStartedAt);
    /** Each scenario's part of its iterations, posted to a VU once. */
    const binds = new Map<ScenarioRun, IterationBind>();
    /** One tags object per scenario for its iteration samples, so the store keys them once. */
    const iterationTags = new Map<ScenarioRun, Record<string, string>>();
    const bindOf = (run: ScenarioRun): IterationBind => {
      let bind = binds.get(run);
      if (!bind) {
        const c = run.config;
        bind = {
          id: binds.size,
          fn: c.exec,
          arg: setupData,
          scenario: { name: c.name, executor: c.executor, startTime: testStartedAt + c.startTimeMs, tags: c.tags },
          group: '',
        };
        binds.set(run, bind);
      }
      return bind;
    };
    /** An iteration that threw is logged and the scenario goes on; one that aborted the test stops it. */
    const failed = (run: ScenarioRun, err: string | null, abort: string | null) => {
      if (abort) aborted = abort;
      if (err) sinks.console('error', `${run.config.name}: ${err.split('\n')[0]}`);
    };
    if (!aborted) {
      const p = pool;
      const local = localPool;
      const host: ExecutorHost = {
        pool: p,
        localPool: local ?? null,
        runsAsync: (run) => isAsync(run.config.exec),
        now: () => Date.now() - testStartedAt,
        aborted: () => aborted !== null,
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
          const c = run.config;
          // The VU takes its number (exec.vu.iterationInInstance, from 0 as in k6) as the iteration starts.
          const running = vu.iterate(bindOf(run), {
            inScenario: n.inScenario,
            inInstance: n.inInstance,
            inTest: n.inTest,
            progress: run.progressAt(Date.now() - testStartedAt),
          });
          vu.iterationInInstance++;
          const outcome = await deadlines.race(running, deadline);
          if (outcome === 'interrupted') {
            run.interrupted++;
            await vu.stop();
            return false;
          }
          const tags =
            iterationTags.get(run) ?? iterationTags.set(run, { ...configure.testTags, ...c.tags, scenario: c.name, group: '' }).get(run)!;
          failed(run, outcome.error, outcome.aborted);
          const at = Date.now();
          record([
            { metric: 'iterations', type: 'counter', time: false, value: 1, tags, at },
            { metric: 'iteration_duration', type: 'trend', time: true, value: outcome.ms, tags, at },
          ]);
          run.completed++;
          return outcome.error === null;
        },
        // On a board the VU counts its iterations and emits their samples itself; a failure is reported at once.
        claim: async (vu, run, board) => {
          const end = await vu.claim(bindOf(run), board, run.perVu.get(vu.id) ?? 0, { failed: (err, abort) => failed(run, err, abort) });
          if (end === null) return false;
          run.perVu.set(vu.id, end.iterationInScenario);
          return true;
        },
      };
      progress.start(
        runs,
        store,
        () => Date.now() - testStartedAt,
        () => p.active + (local?.active ?? 0),
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

    if (facts.functions.includes('teardown') && !error) {
      progress.stage('teardown');
      const r = await withTimeout(
        callOutside('teardown', setupData, '::teardown'),
        parseDurationMs(options['teardownTimeout'] ?? '60s', 'teardownTimeout'),
        'teardown',
      );
      if (r.error) sinks.console('error', `teardown failed: ${r.error.split('\n')[0]}`);
    }
    // VUs send their samples in batches: each hands over what it still holds before anything is counted.
    await pool.flushAll();
    verdicts = evaluateThresholds(thresholds, store, durationMs);
    const data = buildSummaryData({ store, thresholds, verdicts, trendStats, durationMs, setupData, options });
    if (facts.functions.includes('handleSummary')) {
      const r = await callOutside('handleSummary', data, '');
      if (r.error) throw new Error(`handleSummary failed: ${r.error}`);
      writeSummaryOutputs(r.result as Record<string, string>);
    } else {
      process.stdout.write(defaultSummary(verdicts));
    }
  } catch (err) {
    error = (err as Error).message;
  } finally {
    progress.stop();
    await Promise.all([initVu.stop(), pool?.stopAll(), localPool?.stopAll(), localCaller?.stop()]);
    localScript?.unload();
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
    for (const v of evaluateThresholds(due, store, now)) if (!v.ok) abort(`threshold ${v.key} ${v.source} failed`);
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
