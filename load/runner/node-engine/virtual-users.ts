// The Node runner's VUs. A k6 VU is a goroutine; here every VU lives in the
// runner's own thread and waits on promises instead of blocking (k6's
// http.asyncRequest, k6/timers), so there is no thread per VU and no
// hand-off between threads per request: undici's answer reaches the VU
// where it arrives. That is why the runner runs async functions only
// (engine.ts refuses any other before the test starts) and refuses the
// calls that would block the thread (vu/vu-state.js refuseBlocking).
//
// What differs from k6: the script is loaded once, in its test's init
// context, and its modules are shared by the VUs (k6 loads them once per
// VU), so a script that keeps per-VU state in module variables must key it
// by exec.vu.idInTest; and a function's own CPU time delays the other VUs.
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HttpService } from './http-service.ts';
import type { Sample } from './metrics.ts';
import type {} from './vu/checked-modules.ts';
import { asyncRequest } from './vu/k6-http.js';
import { openIn } from './vu/k6-open.js';
import { holdScriptGlobals, releaseScriptGlobals } from './script-globals.ts';
import { newVuState, runAs, type ScriptContext, type VuState } from './vu/vu-state.js';

/** The script as written (open() resolves against it) and the staged copy that is imported. */
export interface ScriptFiles {
  scriptPath: string;
  modulePath: string;
}

export interface CallResult {
  result: unknown;
  error: string | null;
  aborted: string | null;
  ms: number;
}

/** What the init context learnt of the script. */
export interface ScriptFacts {
  options: Record<string, unknown>;
  functions: string[];
  /** The exported functions declared `async`. */
  asyncFunctions: string[];
  metrics: { name: string; type: Sample['type']; time: boolean }[];
}

/** A scenario's part of every iteration. */
export interface IterationBind {
  fn: string;
  arg: unknown;
  scenario: { name: string; executor: string; startTime: number; tags: Record<string, string> };
  group: string;
}

/** An iteration's own numbers. */
export interface IterationNumbers {
  inScenario: number;
  inInstance: number;
  inTest: number;
  progress: number;
}

/** What every VU of a test shares: the options' view of the test and where its output goes. */
export interface VuSetup {
  options: Record<string, unknown>;
  testTags: Record<string, string>;
  systemTags: string[] | null;
  testStartedAt: number;
  http: HttpService;
  samples(samples: Sample[]): void;
  /** A VU made a call the runner cannot run (a blocking one): the test ends as one that could not run. */
  refuse(message: string): void;
}

const isAsyncFunction = (value: unknown) => Object.prototype.toString.call(value) === '[object AsyncFunction]';

/**
 * A test's script, loaded in this thread with k6's globals
 * (script-globals.ts) answering for it while its code runs. Its init code
 * runs in an init context of its own, so several tests may load their
 * scripts here at once, each with its own __ENV, SharedArrays and console.
 */
export class LoadedScript {
  private unloaded = false;

  private constructor(
    readonly exports: Record<string, unknown>,
    readonly context: ScriptContext,
    readonly facts: ScriptFacts,
  ) {}

  static async load(files: ScriptFiles, env: Record<string, string>, console: ScriptContext['console']): Promise<LoadedScript> {
    const context: ScriptContext = { env: { ...env }, open: openIn(dirname(files.scriptPath)), sharedArrays: new Map(), console };
    const init = newVuState(0);
    init.script = context;
    holdScriptGlobals();
    try {
      // Module code, and what it awaits, runs as this test's init context.
      const exports = (await runAs(init, () => import(pathToFileURL(files.modulePath).href))) as Record<string, unknown>;
      const functions = Object.keys(exports).filter((k) => typeof exports[k] === 'function');
      // Options cross as JSON, as in k6: what the script's functions see is plain data.
      const options = exports['options'] === undefined ? {} : (JSON.parse(JSON.stringify(exports['options'])) as Record<string, unknown>);
      return new LoadedScript(exports, context, {
        options,
        functions,
        asyncFunctions: functions.filter((k) => isAsyncFunction(exports[k])),
        metrics: init.declaredMetrics as ScriptFacts['metrics'],
      });
    } catch (err) {
      releaseScriptGlobals();
      throw err;
    }
  }

  unload(): void {
    if (this.unloaded) return;
    this.unloaded = true;
    releaseScriptGlobals();
  }
}

export class VirtualUser {
  readonly state: VuState;
  iterationInInstance = 0;
  private calls = 0;
  private stopped = false;

  constructor(
    readonly id: number,
    private readonly script: LoadedScript,
    setup: VuSetup,
  ) {
    const state = newVuState(id);
    state.inInit = false;
    state.script = script.context;
    state.options = setup.options;
    state.testTags = setup.testTags;
    state.systemTags = setup.systemTags ? new Set(setup.systemTags) : null;
    state.testStartedAt = setup.testStartedAt;
    state.vu = {
      http: (req, cancel) => setup.http.one(req, cancel),
      deliver: (samples) => setup.samples(samples),
      refuse: (message) => setup.refuse(message),
      cancel: new AbortController(),
      timers: new Set(),
      interrupted: false,
    };
    this.state = state;
  }

  get alive(): boolean {
    return !this.stopped;
  }

  get running(): boolean {
    return this.calls > 0 && !this.stopped;
  }

  /** The test's clock, once it is set (after setup, as in k6). */
  startClock(testStartedAt: number): void {
    this.state.testStartedAt = testStartedAt;
  }

  /** A call outside any scenario: setup, teardown, handleSummary. */
  call(fn: string, arg: unknown, group: string): Promise<CallResult> {
    const s = this.state;
    s.scenario = null;
    s.iterationInScenario = 0;
    s.iterationInInstance = this.iterationInInstance;
    s.group = group;
    return this.invoke(fn, arg, true);
  }

  iterate(bind: IterationBind, n: IterationNumbers): Promise<CallResult> {
    const s = this.state;
    s.scenario = { ...bind.scenario, progress: n.progress, iterationInInstance: n.inInstance, iterationInTest: n.inTest };
    s.iterationInScenario = n.inScenario;
    s.iterationInInstance = this.iterationInInstance;
    s.group = bind.group;
    return this.invoke(bind.fn, bind.arg, false);
  }

  /** Sends `requests` GETs to `url` one after another, the way a script's requests go (warm-up.ts). */
  async warmUp(url: string, requests: number): Promise<void> {
    await runAs(this.state, async () => {
      for (let i = 0; i < requests; i++) {
        const res = await asyncRequest('GET', url);
        if (res.status !== 200) throw new Error(`the VUs' warm-up got ${res.status || res.error} from ${url}`);
      }
    });
  }

  /**
   * Interrupts what the VU runs: its requests are cancelled and its timers
   * cleared, and neither settles the promise its code waits on, so nothing
   * after the wait runs; whatever it still emits is dropped. The VU is not
   * used again.
   */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    const vu = this.state.vu!;
    vu.interrupted = true;
    vu.cancel.abort();
    for (const timer of vu.timers) clearTimeout(timer);
    vu.timers.clear();
  }

  private async invoke(name: string, arg: unknown, keepResult: boolean): Promise<CallResult> {
    const started = Date.now();
    const fn = this.script.exports[name];
    this.state.fn = name;
    this.calls++;
    try {
      if (typeof fn !== 'function') throw new Error(`the script exports no function ${name}`);
      const value: unknown = await runAs(this.state, () => (fn as (a: unknown) => unknown)(arg));
      // Setup data and summaries cross as JSON, as in k6; an iteration's result is dropped.
      const result = keepResult && value !== undefined ? (JSON.parse(JSON.stringify(value)) as unknown) : null;
      return { result, error: null, aborted: null, ms: Date.now() - started };
    } catch (err) {
      const e = err as (Error & { fleetproofAbort?: boolean }) | undefined;
      if (e?.fleetproofAbort) return { result: null, error: null, aborted: e.message, ms: Date.now() - started };
      return {
        result: null,
        error: err instanceof Error ? err.stack || err.message : String(err),
        aborted: null,
        ms: Date.now() - started,
      };
    } finally {
      this.calls--;
    }
  }
}

/**
 * The test's VUs: every one made is kept in `all`, for counting and
 * stopping; the free ones wait in a stack for a scenario to take them, and
 * one that was stopped is never handed out again.
 */
export class VuPool {
  private readonly free: VirtualUser[] = [];
  readonly all: VirtualUser[] = [];
  /** VU 0 runs setup, teardown and handleSummary; the pool's VUs count from 1, as k6's do. */
  private nextId = 1;

  constructor(private readonly create: (id: number) => VirtualUser) {}

  /** Creates VUs until `count` are free (k6 initialises VUs before the test starts). */
  prepare(count: number): void {
    while (this.free.length < count) this.free.push(this.spawn());
  }

  /** A free VU, or a new one: creating one costs no more than an object. */
  take(): VirtualUser {
    while (this.free.length > 0) {
      const vu = this.free.pop()!;
      if (vu.alive) return vu;
    }
    return this.spawn();
  }

  give(vu: VirtualUser): void {
    if (vu.alive) this.free.push(vu);
  }

  get active(): number {
    return this.all.filter((v) => v.running).length;
  }

  stopAll(): void {
    for (const vu of this.all) vu.stop();
  }

  private spawn(): VirtualUser {
    const vu = this.create(this.nextId++);
    this.all.push(vu);
    return vu;
  }
}
