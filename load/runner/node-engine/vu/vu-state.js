// The state of a VU of the Node runner, shared by the k6 module
// implementations: who the VU is, what it is running, its tags, and the
// samples it has produced but not yet handed over. A VU thread holds one VU,
// `vu`. The runner's own thread holds every async VU (local-vus.ts), each
// with a state of its own that follows its code across awaits in an
// AsyncLocalStorage; `current()` is the VU whose code is running, and the
// k6 modules read it, never `vu` directly.
import { AsyncLocalStorage } from 'node:async_hooks';
import { parentPort } from 'node:worker_threads';
import { requestRecord } from './request-samples.js';

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
 * What only an async VU has: it runs in the runner's thread, beside the
 * other async VUs, and its requests and timers are the runner's own.
 * @typedef {object} LocalPart
 * @property {(req: import('../http-service.ts').WireRequest, cancel: AbortSignal) => Promise<import('../http-service.ts').WireResponse>} http
 * @property {(samples: Array<Sample | import('./request-samples.js').RequestRecord>) => void} deliver
 * @property {(level: string, text: string) => void} console
 * @property {AbortController} cancel aborts the requests in flight when the VU is interrupted
 * @property {Set<NodeJS.Timeout>} timers k6/timers' timers, cleared when the VU is interrupted
 * @property {boolean} interrupted set once; from then on nothing of the VU's runs or reports
 */

/**
 * In the runner's thread, what the async VUs and the init context of one
 * test share: k6's globals that belong to the script (script-globals.ts),
 * and the SharedArrays it built. Several tests may run there at once.
 * @typedef {object} ScriptContext
 * @property {Record<string, string>} env the test's __ENV
 * @property {(path: string, mode?: string) => string | ArrayBuffer} open open() relative to the test's script
 * @property {Map<string, readonly unknown[]>} sharedArrays
 */

/** @param {number} id */
export function newVuState(id) {
  return {
    id,
    inInit: true,
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
    /** @type {any} consolidated options, as the main thread resolved them */
    options: {},
    /** @type {Record<string, string>} */
    testTags: {},
    /** @type {Set<string> | null} system tags to keep; null keeps all */
    systemTags: null,
    testStartedAt: 0,
    /** @type {Array<Sample | import('./request-samples.js').RequestRecord>} */
    samples: [],
    /** @type {Array<{ name: string, type: string, time: boolean }>} */
    declaredMetrics: [],
    instance: { iterationsCompleted: 0, iterationsInterrupted: 0, vusActive: 0, vusInitialized: 0 },
    /** http.setResponseCallback's callback; undefined keeps k6's default (k6-http.js) */
    /** @type {unknown} */
    responseCallback: undefined,
    /** @type {LocalPart | null} */
    local: null,
    /** @type {ScriptContext | null} the test's, in the runner's thread; null on a VU thread */
    script: null,
  };
}

/** @typedef {ReturnType<typeof newVuState>} VuState */

/** This thread's VU; in the runner's thread, the init context that loads the script for the async VUs. */
export const vu = newVuState(0);

// One store per thread, however many copies of this file the thread evaluates:
// under tsx, the runner's TypeScript and the staged script each get their own.
const STORE = Symbol.for('fleetproof.node-runner.async-vus');
const asyncVus = /** @type {AsyncLocalStorage<VuState>} */ (/** @type {any} */ (globalThis)[STORE] ??= new AsyncLocalStorage());

/** @returns {VuState} the VU whose code is running */
export function current() {
  return asyncVus.getStore() ?? vu;
}

/**
 * Runs `fn` as the async VU `state`: it, and everything it awaits, sees `state` as current().
 * @template T
 * @param {VuState} state
 * @param {() => T} fn
 * @returns {T}
 */
export function runAs(state, fn) {
  return asyncVus.run(state, fn);
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
 * copy, which the message to the main thread then carries once instead of
 * once per sample. Callers pass a fresh object per emitting call and never
 * change it after.
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
  hold(current(), { metric, type, time, value, tags: kept(tags), at: Date.now() });
}

/**
 * Emits one HTTP request's metrics as one record (request-samples.js).
 * @param {Record<string, string>} tags
 * @param {number[]} timings
 * @param {number} sent
 * @param {number} received
 * @param {0 | 1 | null} failed
 */
export function emitRequest(tags, timings, sent, received, failed) {
  hold(current(), requestRecord(kept(tags), timings, sent, received, failed));
}

/**
 * An async VU hands a sample to the runner at once (its thread is the
 * runner's); a VU thread holds it for its next message.
 * @param {VuState} s
 * @param {Sample | import('./request-samples.js').RequestRecord} sample
 */
function hold(s, sample) {
  if (s.local) {
    if (!s.local.interrupted) s.local.deliver([sample]);
    return;
  }
  s.samples.push(sample);
  if (s.samples.length >= 2000) flushSamples();
}

/** Hands buffered samples to the main thread without waiting. */
export function flushSamples() {
  if (vu.samples.length === 0) return;
  parentPort?.postMessage({ type: 'samples', samples: takeSamples() });
}

/** The buffered samples, to travel with a message the VU sends anyway (one message fewer per request). */
export function takeSamples() {
  const samples = vu.samples;
  vu.samples = [];
  return samples;
}

/** @param {string} what */
export function requireInit(what) {
  if (!current().inInit) throw new Error(`${what} is only available in the init context`);
}
