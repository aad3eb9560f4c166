// The state of a VU of the Node runner, shared by the k6 module
// implementations: who the VU is, what it is running and its tags. Every VU
// lives in the runner's own thread (virtual-users.ts), each with a state of
// its own that follows its code across awaits in an AsyncLocalStorage;
// `current()` is the VU whose code is running, or the init context loading
// a test's script, and the k6 modules read it.
import { AsyncLocalStorage } from 'node:async_hooks';
import { requestSamples } from './request-samples.js';

/**
 * @typedef {object} Sample
 * @property {string} metric
 * @property {'counter' | 'gauge' | 'rate' | 'trend'} type
 * @property {boolean} time whether a trend holds durations
 * @property {number} value
 * @property {Record<string, string>} tags
 * @property {number} at milliseconds since the epoch
 */

/**
 * @typedef {object} ScenarioInfo
 * @property {string} name
 * @property {string} executor
 * @property {number} startTime
 * @property {number} progress
 * @property {number} iterationInInstance
 * @property {number} iterationInTest
 * @property {Record<string, string>} tags
 */

/**
 * What a VU has and an init context lacks: the runner's HTTP and metric
 * sinks, and what interrupting it cancels.
 * @typedef {object} VuPart
 * @property {(req: import('../http-service.ts').WireRequest, cancel: AbortSignal) => Promise<import('../http-service.ts').WireResponse>} http
 * @property {(samples: Sample[]) => void} deliver
 * @property {(message: string) => void} refuse ends the test as one that could not run (a blocking call)
 * @property {AbortController} cancel aborts the requests in flight when the VU is interrupted
 * @property {Set<NodeJS.Timeout>} timers k6/timers' timers, cleared when the VU is interrupted
 * @property {boolean} interrupted set once; from then on nothing of the VU's runs or reports
 */

/**
 * What the VUs and the init context of one test share: k6's globals that
 * belong to the script (script-globals.ts), the SharedArrays it built and
 * where its console goes. Several tests may run in one thread at once.
 * @typedef {object} ScriptContext
 * @property {Record<string, string>} env the test's __ENV
 * @property {(path: string, mode?: string) => string | ArrayBuffer} open open() relative to the test's script
 * @property {Map<string, readonly unknown[]>} sharedArrays
 * @property {(level: string, text: string) => void} console
 */

/** @param {number} id */
export function newVuState(id) {
  return {
    id,
    inInit: true,
    /** The exported function the VU runs ('' in the init context), for the messages that name it. */
    fn: '',
    /** @type {ScenarioInfo | null} */
    scenario: null,
    iterationInScenario: 0,
    iterationInInstance: 0,
    /** @type {Record<string, string>} */
    tags: {},
    /** @type {Record<string, string>} */
    metadata: {},
    /** The current group path, '' at the root; '::name::inner' inside groups. */
    group: '',
    /** @type {any} consolidated options, as the runner resolved them */
    options: {},
    /** @type {Record<string, string>} */
    testTags: {},
    /** @type {Set<string> | null} system tags to keep; null keeps all */
    systemTags: null,
    testStartedAt: 0,
    /** @type {Array<{ name: string, type: string, time: boolean }>} */
    declaredMetrics: [],
    instance: { iterationsCompleted: 0, iterationsInterrupted: 0, vusActive: 0, vusInitialized: 0 },
    /** http.setResponseCallback's callback; undefined keeps k6's default (k6-http.js) */
    /** @type {unknown} */
    responseCallback: undefined,
    /** @type {VuPart | null} null in the init context */
    vu: null,
    /** @type {ScriptContext | null} the test's; null outside any script's code */
    script: null,
  };
}

/** @typedef {ReturnType<typeof newVuState>} VuState */

/** What current() answers outside any script's code: neither a VU nor an init context. */
const OUTSIDE = newVuState(0);
OUTSIDE.inInit = false;

// One store per thread, however many copies of this file the thread evaluates:
// under tsx, the runner's TypeScript and the staged script each get their own.
const STORE = Symbol.for('fleetproof.node-runner.vus');
const vus = /** @type {AsyncLocalStorage<VuState>} */ (/** @type {any} */ (globalThis)[STORE] ??= new AsyncLocalStorage());

/** @returns {VuState} the VU or init context whose code is running */
export function current() {
  return vus.getStore() ?? OUTSIDE;
}

/**
 * Runs `fn` as `state`: it, and everything it awaits, sees `state` as current().
 * @template T
 * @param {VuState} state
 * @param {() => T} fn
 * @returns {T}
 */
export function runAs(state, fn) {
  return vus.run(state, fn);
}

/** Tags every sample of the current context carries, before its own. */
export function contextTags() {
  const s = current();
  /** @type {Record<string, string>} */
  const tags = { ...s.testTags };
  if (s.scenario) {
    Object.assign(tags, s.scenario.tags);
    tags['scenario'] = s.scenario.name;
  }
  tags['group'] = s.group;
  Object.assign(tags, s.tags);
  return tags;
}

/** Drops system tags the options exclude (options.systemTags). */
export function keepTag(/** @type {string} */ name) {
  const systemTags = current().systemTags;
  return systemTags === null || systemTags.has(name) || !SYSTEM_TAGS.has(name);
}

const SYSTEM_TAGS = new Set([
  'proto',
  'subproto',
  'status',
  'method',
  'url',
  'name',
  'group',
  'check',
  'error',
  'error_code',
  'tls_version',
  'scenario',
  'service',
  'expected_response',
]);

/**
 * The tags object last emitted with and its kept copy. One check's or
 * metric call's samples are emitted with one tags object, so they share one
 * copy, which the metric store and the JSON output then key once instead
 * of once per sample. Callers pass a fresh object per emitting call and
 * never change it after.
 */
let lastTags = /** @type {Record<string, string> | null} */ (null);
let lastKept = /** @type {Record<string, string>} */ ({});

/** @param {Record<string, string>} tags */
function kept(tags) {
  if (tags !== lastTags) {
    /** @type {Record<string, string>} */
    const copy = {};
    for (const [k, v] of Object.entries(tags)) if (v !== undefined && keepTag(k)) copy[k] = String(v);
    lastTags = tags;
    lastKept = copy;
  }
  return lastKept;
}

/**
 * @param {string} metric
 * @param {Sample['type']} type
 * @param {number} value
 * @param {Record<string, string>} tags
 * @param {boolean} [time]
 */
export function emit(metric, type, value, tags, time = false) {
  deliver([{ metric, type, time, value, tags: kept(tags), at: Date.now() }]);
}

/**
 * Emits one HTTP request's metrics (request-samples.js).
 * @param {Record<string, string>} tags
 * @param {number[]} timings
 * @param {number} sent
 * @param {number} received
 * @param {0 | 1 | null} failed
 */
export function emitRequest(tags, timings, sent, received, failed) {
  deliver(requestSamples(kept(tags), timings, sent, received, failed));
}

/** Hands samples to the runner at once; an interrupted VU's are dropped with the rest of what it does. */
function deliver(/** @type {Sample[]} */ samples) {
  const vu = current().vu;
  if (!vu) throw new Error('metrics are emitted by a VU (setup, an iteration, teardown), not in the init context');
  if (!vu.interrupted) vu.deliver(samples);
}

/** @param {string} what */
export function requireInit(what) {
  if (!current().inInit) throw new Error(`${what} is only available in the init context`);
}

/**
 * Refuses a call that blocks its VU (http.get and its kind, http.batch,
 * sleep): every VU of the Node runner shares one thread, which such a call
 * would stop. The test cannot run as written, so it ends there as one that
 * could not run, whatever the script does with the error.
 * @param {string} call what the script called
 * @param {string} instead what an async function awaits in its place
 * @returns {never}
 */
export function refuseBlocking(call, instead) {
  const s = current();
  const where = s.fn ? ` in ${s.fn}` : s.inInit ? ' in the init context' : '';
  const message = `${call}${where} blocks its VU, and the Node runner runs every VU in one thread: declare the function async and ${instead}, or run the script with --engine k6`;
  s.vu?.refuse(message);
  throw new Error(message);
}
