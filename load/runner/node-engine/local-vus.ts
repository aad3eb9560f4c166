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
import type { HttpService } from './http-service.ts';
import type { Sample } from './metrics.ts';
import type { CallResult, IterationBind, IterationNumbers, ScriptFiles } from './vu-pool.ts';
import { asyncRequest } from './vu/k6-http.js';
import { openIn } from './vu/k6-open.js';
import { expandSamples } from './vu/request-samples.js';
import { holdScriptGlobals, releaseScriptGlobals } from './script-globals.ts';
import { VuFreeList } from './vu-free-list.ts';
import { newVuState, runAs, type ScriptContext, type VuState } from './vu/vu-state.js';

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

/**
 * A test's script loaded in this thread for its async VUs, with k6's globals
 * (script-globals.ts) answering for it while its code runs. Its init code
 * runs in an init context of its own, so several tests may load their
 * scripts here at once, each with its own __ENV and SharedArrays.
 */
export class LocalScript {
  private unloaded = false;

  private constructor(
    readonly exports: Record<string, unknown>,
    readonly context: ScriptContext,
  ) {}

  static async load(files: ScriptFiles, env: Record<string, string>): Promise<LocalScript> {
    const context: ScriptContext = { env: { ...env }, open: openIn(dirname(files.scriptPath)), sharedArrays: new Map() };
    const init = newVuState(0);
    init.script = context;
    holdScriptGlobals();
    try {
      // Module code, and what it awaits, runs as this test's init context.
      const exports = (await runAs(init, () => import(pathToFileURL(files.modulePath).href))) as Record<string, unknown>;
      return new LocalScript(exports, context);
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
    state.script = script.context;
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

/** Free async VUs, created on demand; ids come from the counter the VU threads draw theirs from. */
export class LocalVuPool extends VuFreeList<LocalVu> {
  constructor(
    private readonly create: (id: number) => LocalVu,
    ids: { next: number },
  ) {
    super(ids);
  }

  protected make(id: number): LocalVu {
    return this.create(id);
  }

  /** Creates VUs until `count` are free (k6 initialises VUs before the test starts). */
  prepare(count: number): void {
    while (this.free.length < count) this.free.push(this.spawn());
  }

  /** A free VU; creating one costs no more than an object here. */
  async takeOrCreate(): Promise<LocalVu> {
    return this.take() ?? this.spawn();
  }
}
