// Async VUs: the VUs of scenarios whose function is `async`. A k6 script's
// synchronous calls block their VU, which is why a VU of a synchronous
// function is a thread of its own (vu-pool.ts) whose HTTP the runner's thread
// performs. An async function waits on promises instead (k6's
// http.asyncRequest, k6/timers), so its VUs can all live in the runner's
// thread, as goroutines do in k6: no thread per VU, no hand-off between
// threads per request, and undici's answers reach the VU where they arrive.
//
// What differs from a VU thread: the script is loaded once in this thread
// and its modules are shared by the async VUs (k6 loads them once per VU),
// so a script that keeps per-VU state in module variables must key it by
// exec.vu.idInTest; sync http calls and sleep() are refused there, as they
// would stop every VU; and a function's own CPU time delays the other VUs
// of this thread, where a VU thread would run beside them.
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';
import type { HttpService } from './http-service.ts';
import type { Sample } from './metrics.ts';
import type { CallResult, IterationBind, IterationNumbers, ScriptFiles } from './vu-pool.ts';
import { asyncRequest } from './vu/k6-http.js';
import { forgetSharedArrays } from './vu/k6-data.js';
import { openIn } from './vu/k6-open.js';
import { expandSamples } from './vu/request-samples.js';
import { current, newVuState, runAs, vu as initContext, type VuState } from './vu/vu-state.js';

/** What every async VU of a test shares: the options' view of the test and where its output goes. */
export interface LocalVuSetup {
  options: Record<string, unknown>;
  testTags: Record<string, string>;
  systemTags: string[] | null;
  testStartedAt: number;
  http: HttpService;
  samples(samples: Sample[]): void;
  console(level: string, text: string): void;
}

const CONSOLE_LEVELS = ['log', 'info', 'warn', 'error', 'debug'] as const;

/**
 * The script loaded in this thread, with k6's globals for the async VUs:
 * __ENV, __VU and __ITER (the running VU's), open() and a console that
 * writes what an async VU logs to its VU's console (the test's console
 * output). The globals are
 * this thread's, so one test at a time loads a script here; unload() puts
 * back what was there.
 */
export class LocalScript {
  private static loaded = false;

  private constructor(
    readonly exports: Record<string, unknown>,
    /** Puts back the globals and the console; called once. */
    private undo: (() => void) | null,
  ) {}

  static async load(files: ScriptFiles, env: Record<string, string>): Promise<LocalScript> {
    if (LocalScript.loaded) throw new Error('another test runs async VUs in this thread');
    LocalScript.loaded = true;
    forgetSharedArrays();
    const globals: Record<string, PropertyDescriptor> = {
      __ENV: { value: { ...env }, writable: true },
      __VU: { get: () => current().id },
      __ITER: { get: () => current().iterationInScenario },
      open: { value: openIn(dirname(files.scriptPath)), writable: true },
    };
    const previous = new Map(Object.keys(globals).map((k) => [k, Object.getOwnPropertyDescriptor(globalThis, k)]));
    const originalConsole = CONSOLE_LEVELS.map((level) => [level, console[level]] as const);
    const undo = () => {
      for (const [k, d] of previous) {
        if (d) Object.defineProperty(globalThis, k, d);
        else delete (globalThis as Record<string, unknown>)[k];
      }
      for (const [level, fn] of originalConsole) console[level] = fn;
      forgetSharedArrays();
      LocalScript.loaded = false;
    };
    for (const [k, d] of Object.entries(globals)) Object.defineProperty(globalThis, k, { ...d, configurable: true });
    let importing = true;
    for (const [level, original] of originalConsole) {
      console[level] = (...args: unknown[]) => {
        const s = current();
        // The script's init code ran on VU 0's thread already, which printed what it logs.
        if (s === initContext) {
          if (!importing) original.apply(console, args);
          return;
        }
        if (!s.local?.interrupted) s.local?.console(level, format(...args));
      };
    }
    try {
      const exports = (await import(pathToFileURL(files.modulePath).href)) as Record<string, unknown>;
      importing = false;
      return new LocalScript(exports, undo);
    } catch (err) {
      undo();
      throw err;
    }
  }

  unload(): void {
    this.undo?.();
    this.undo = null;
  }
}

export class LocalVu {
  readonly state: VuState;
  iterationInInstance = 0;
  private calls = 0;
  private stopped = false;

  constructor(
    readonly id: number,
    private readonly script: LocalScript,
    setup: LocalVuSetup,
  ) {
    const state = newVuState(id);
    state.inInit = false;
    state.options = setup.options;
    state.testTags = setup.testTags;
    state.systemTags = setup.systemTags ? new Set(setup.systemTags) : null;
    state.testStartedAt = setup.testStartedAt;
    state.local = {
      http: (req, cancel) => setup.http.one(req, cancel),
      deliver: (samples) => setup.samples(expandSamples(samples)),
      console: setup.console,
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

  /** The test's clock, once it is set (engine.ts starts it a moment after the VUs exist). */
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
        if (res.status !== 200) throw new Error(`the async VUs' warm-up got ${res.status || res.error} from ${url}`);
      }
    });
  }

  /**
   * Interrupts what the VU runs: its requests are cancelled and its timers
   * cleared, and neither settles the promise its code waits on, so nothing
   * after the wait runs; whatever it still emits is dropped. The VU is not
   * used again.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const local = this.state.local!;
    local.interrupted = true;
    local.cancel.abort();
    for (const timer of local.timers) clearTimeout(timer);
    local.timers.clear();
  }

  private async invoke(name: string, arg: unknown, keepResult: boolean): Promise<CallResult> {
    const started = Date.now();
    const fn = this.script.exports[name];
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
      return { result: null, error: err instanceof Error ? err.stack || err.message : String(err), aborted: null, ms: Date.now() - started };
    } finally {
      this.calls--;
    }
  }
}

/** Free async VUs, created on demand; ids come from the counter the VU threads draw theirs from. */
export class LocalVuPool {
  private readonly free: LocalVu[] = [];
  readonly all: LocalVu[] = [];

  constructor(
    private readonly create: (id: number) => LocalVu,
    private readonly ids: { next: number },
  ) {}

  /** Creates VUs until `count` are free (k6 initialises VUs before the test starts). */
  prepare(count: number): void {
    while (this.free.length < count) this.free.push(this.spawn());
  }

  private spawn(): LocalVu {
    const vu = this.create(this.ids.next++);
    this.all.push(vu);
    return vu;
  }

  take(): LocalVu | null {
    while (this.free.length > 0) {
      const vu = this.free.pop()!;
      if (vu.alive) return vu;
    }
    return null;
  }

  /** A free VU; creating one costs no more than an object here. */
  async takeOrCreate(): Promise<LocalVu> {
    return this.take() ?? this.spawn();
  }

  give(vu: LocalVu): void {
    if (vu.alive) this.free.push(vu);
  }

  get initialized(): number {
    return this.all.filter((v) => v.alive).length;
  }

  get active(): number {
    return this.all.filter((v) => v.running).length;
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.all.map((v) => v.stop()));
  }
}
