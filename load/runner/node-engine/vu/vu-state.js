// The state of one VU thread of the Node runner, shared by the k6 module
// implementations: who the VU is, what it is running, its tags, and the
// samples it has produced but not yet handed to the main thread.
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

export const vu = {
  id: 0,
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
};

/** Tags every sample of the current context carries, before its own. */
export function contextTags() {
  /** @type {Record<string, string>} */
  const tags = { ...vu.testTags };
  if (vu.scenario) {
    Object.assign(tags, vu.scenario.tags);
    tags['scenario'] = vu.scenario.name;
  }
  tags['group'] = vu.group;
  Object.assign(tags, vu.tags);
  return tags;
}

/** Drops system tags the options exclude (options.systemTags). */
export function keepTag(/** @type {string} */ name) {
  return vu.systemTags === null || vu.systemTags.has(name) || !SYSTEM_TAGS.has(name);
}

const SYSTEM_TAGS = new Set(['proto', 'subproto', 'status', 'method', 'url', 'name', 'group', 'check', 'error', 'error_code', 'tls_version', 'scenario', 'service', 'expected_response']);

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
  vu.samples.push({ metric, type, time, value, tags: kept(tags), at: Date.now() });
  if (vu.samples.length >= 2000) flushSamples();
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
  vu.samples.push(requestRecord(kept(tags), timings, sent, received, failed));
  if (vu.samples.length >= 2000) flushSamples();
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
  if (!vu.inInit) throw new Error(`${what} is only available in the init context`);
}
