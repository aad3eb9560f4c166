// One VU of the Node runner: a worker thread that loads the script's staged
// copy, whose k6 modules are the files of this directory (stage-script.ts),
// then runs what the main
// thread asks (setup, an iteration of a scenario function, teardown,
// handleSummary) one call at a time, synchronously, as a k6 VU does.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { format } from 'node:util';
import { parentPort, workerData } from 'node:worker_threads';
import { connectBridge, interrupted } from './sync-bridge.js';
import { takeSamples, vu } from './vu-state.js';
import { request } from './k6-http.js';

/** @type {{ scriptPath: string, modulePath: string, vuId: number, env: Record<string, string>, port: import('node:worker_threads').MessagePort, flag: SharedArrayBuffer }} */
const data = workerData;
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

connectBridge(data.port, data.flag);
vu.id = data.vuId;

for (const level of /** @type {const} */ (['log', 'info', 'warn', 'error', 'debug'])) {
  console[level] = (/** @type {unknown[]} */ ...args) => {
    if (!interrupted()) port.postMessage({ type: 'console', level, text: format(...args) });
  };
}

const scriptDir = dirname(data.scriptPath);
Object.assign(globalThis, {
  __ENV: { ...data.env },
  __VU: data.vuId,
  __ITER: 0,
  /**
   * @param {string} path relative to the script, or absolute
   * @param {string} [mode] 'b' for an ArrayBuffer
   */
  open(path, mode) {
    if (!vu.inInit) throw new Error('open() is only available in the init context');
    const file = isAbsolute(path) ? path : resolve(scriptDir, path.startsWith('file://') ? fileURLToPath(path) : path);
    const bytes = readFileSync(file);
    return mode === 'b' ? bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) : bytes.toString('utf8');
  },
});

/** @type {Record<string, unknown>} */
let script = {};
try {
  script = await import(pathToFileURL(data.modulePath).href);
  vu.inInit = false;
  const options = script['options'] === undefined ? {} : JSON.parse(JSON.stringify(script['options']));
  const functions = Object.keys(script).filter((k) => typeof script[k] === 'function');
  port.postMessage({ type: 'ready', options, functions, metrics: vu.declaredMetrics });
} catch (err) {
  port.postMessage({ type: 'failed', error: describe(err) });
}

/**
 * Requests to the runner's own loopback server, not the target, until V8
 * has compiled the request path (warm-up.ts); their samples are discarded.
 * @param {{ url: string, requests: number }} arg
 */
function warmUp(arg) {
  for (let i = 0; i < arg.requests; i++) {
    request('GET', arg.url);
    takeSamples();
  }
  return null;
}

/** @param {unknown} err */
function describe(err) {
  return err instanceof Error ? err.stack || err.message : String(err);
}

/**
 * @typedef {object} Call
 * @property {'run'} type
 * @property {string} fn exported function name
 * @property {unknown} [arg]
 * @property {import('./vu-state.js').ScenarioInfo | null} scenario
 * @property {number} iterationInScenario
 * @property {number} iterationInInstance
 * @property {string} group '::setup' and the like, '' for iterations
 */

port.on('message', (/** @type {any} */ msg) => {
  if (msg.type === 'configure') {
    vu.options = msg.options;
    vu.testTags = msg.testTags;
    vu.systemTags = msg.systemTags ? new Set(msg.systemTags) : null;
    vu.testStartedAt = msg.testStartedAt;
    return;
  }
  if (msg.type === 'instance') {
    Object.assign(vu.instance, msg.instance);
    return;
  }
  if (msg.type !== 'run') return;
  const call = /** @type {Call} */ (msg);
  vu.scenario = call.scenario;
  vu.iterationInScenario = call.iterationInScenario;
  vu.iterationInInstance = call.iterationInInstance;
  vu.group = call.group;
  /** @type {any} */ (globalThis).__ITER = call.iterationInScenario;
  const fn = call.fn === '::warm-up' ? warmUp : script[call.fn];
  const started = Date.now();
  let result;
  let error = null;
  let aborted = null;
  try {
    if (typeof fn !== 'function') throw new Error(`the script exports no function ${call.fn}`);
    result = fn(call.arg);
    if (result === undefined) result = null;
    // setup data and summaries cross threads as JSON, as in k6.
    result = JSON.parse(JSON.stringify(result));
  } catch (err) {
    if (err && /** @type {any} */ (err).fleetproofAbort) aborted = /** @type {Error} */ (err).message;
    else error = describe(err);
  }
  port.postMessage({ type: 'done', result, error, aborted, ms: Date.now() - started, samples: takeSamples() });
});
