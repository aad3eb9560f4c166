// One VU of the Node runner: a worker thread that loads the script's staged
// copy, whose k6 modules are the files of this directory (stage-script.ts),
// then runs what the main thread asks (setup, an iteration of a scenario
// function, teardown, handleSummary) one call at a time, synchronously, as a
// k6 VU does. Once loaded it never returns to its event loop: it waits in
// Atomics.wait for the next command, an iteration assigned in the shared
// cells (control-cells.js) or a message, which it takes with
// receiveMessageOnPort.
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { connectBridge, interrupted } from './sync-bridge.js';
import { CELL, DONE, FLOAT, IDLE, POLLED_UNTIL, RUNNING } from './control-cells.js';
import { boardViews, claim, finished, markEnded, sleepOnBoard } from './arrival-board.js';
import { takeSamples, vu } from './vu-state.js';
import { request } from './k6-http.js';
import { openIn } from './k6-open.js';

/** @type {{ scriptPath: string, modulePath: string, vuId: number, env: Record<string, string>, port: import('node:worker_threads').MessagePort, flag: SharedArrayBuffer, polled: SharedArrayBuffer, polledBase: number }} */
const data = workerData;
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

connectBridge(data.port, data.flag);
vu.id = data.vuId;
const cells = new Int32Array(data.flag);
const floats = new Float64Array(data.flag);
const polled = new Int32Array(data.polled);
/** How long samples may wait in this VU before they are sent, when nothing else is. */
const FLUSH_MS = 50;
let flushBy = Date.now() + FLUSH_MS;

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
  open: openIn(scriptDir),
});

/** @type {Record<string, unknown>} */
let script = {};
let loaded = false;
try {
  script = await import(pathToFileURL(data.modulePath).href);
  vu.inInit = false;
  const options = script['options'] === undefined ? {} : JSON.parse(JSON.stringify(script['options']));
  const functions = Object.keys(script).filter((k) => typeof script[k] === 'function');
  // The runner runs these on async VUs in its own thread (local-vus.ts), never here.
  const asyncFunctions = functions.filter((k) => Object.prototype.toString.call(script[k]) === '[object AsyncFunction]');
  port.postMessage({ type: 'ready', options, functions, asyncFunctions, metrics: vu.declaredMetrics });
  loaded = true;
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
 * @property {number} iterationInInstance
 * @property {string} group '::setup' and the like
 */

/**
 * A scenario as the main thread binds it to this VU once, so that each of its
 * iterations needs only numbers in the cells.
 * @typedef {{ id: number, fn: string, arg: unknown, scenario: { name: string, executor: string, startTime: number, tags: Record<string, string> }, group: string }} Bind
 */
/** @type {Map<number, Bind>} */
const binds = new Map();

/** @param {any} msg a command the main thread posted */
function handle(msg) {
  if (msg.type === 'configure') {
    vu.options = msg.options;
    vu.testTags = msg.testTags;
    vu.systemTags = msg.systemTags ? new Set(msg.systemTags) : null;
    vu.testStartedAt = msg.testStartedAt;
    return;
  }
  if (msg.type === 'bind') {
    binds.set(msg.id, msg);
    return;
  }
  if (msg.type === 'flush') {
    postWithSamples({ type: 'flushed' });
    return;
  }
  if (msg.type === 'claim') {
    claimArrivals(msg);
    return;
  }
  if (msg.type !== 'run') return;
  const call = /** @type {Call} */ (msg);
  // Outside any scenario, as k6's setup and teardown run.
  vu.scenario = null;
  vu.iterationInScenario = 0;
  vu.iterationInInstance = call.iterationInInstance;
  vu.group = call.group;
  /** @type {any} */ (globalThis).__ITER = 0;
  const fn = call.fn === '::warm-up' ? warmUp : script[call.fn];
  const { result, error, aborted, ms } = invoke(fn, call.fn, call.arg, true);
  postWithSamples({ type: 'done', result, error, aborted, ms });
}

/** Posts `message` with every sample this VU holds, which restarts the wait before they must go. */
function postWithSamples(/** @type {Record<string, unknown>} */ message) {
  port.postMessage({ ...message, samples: takeSamples() });
  flushBy = Date.now() + FLUSH_MS;
}

/**
 * @param {unknown} fn
 * @param {string} name
 * @param {unknown} arg
 * @param {boolean} keepResult setup data and summaries cross threads as JSON, as in k6; an iteration's result is dropped
 */
function invoke(fn, name, arg, keepResult) {
  const started = Date.now();
  let result = null;
  let error = null;
  let aborted = null;
  try {
    if (typeof fn !== 'function') throw new Error(`the script exports no function ${name}`);
    const value = fn(arg);
    // This thread never returns to its event loop between calls, so a promise's callbacks would run late
    // or never, after the iteration was counted: refused, as no k6 semantics can be kept. Async functions
    // run on the runner's async VUs instead.
    if (value !== null && typeof value === 'object' && typeof (/** @type {any} */ (value).then) === 'function') {
      throw new Error(
        `${name} returned a promise without being an async function: the Node runner runs a synchronous function on a VU thread, which never returns to an event loop; declare it async`,
      );
    }
    if (keepResult && value !== undefined) result = JSON.parse(JSON.stringify(value));
  } catch (err) {
    if (err && /** @type {any} */ (err).fleetproofAbort) aborted = /** @type {Error} */ (err).message;
    else error = describe(err);
  }
  return { result, error, aborted, ms: Date.now() - started };
}

/** True once the runner interrupted this VU (the cell is never cleared): it runs nothing more, however long its thread takes to stop. */
function stopping() {
  return Atomics.load(cells, CELL.INTERRUPT) !== 0;
}

function drainMessages() {
  for (let m = receiveMessageOnPort(port); m && !stopping(); m = receiveMessageOnPort(port)) handle(m.message);
}

/** Runs the iteration assigned in the cells; ends it in the cells, or with a message when it threw. */
function runAssigned() {
  const id = Atomics.load(cells, CELL.BIND);
  let bind = binds.get(id);
  // The bind message was posted before the cells were written; it can be readable a moment later.
  while (!bind) {
    if (stopping()) return;
    Atomics.wait(cells, CELL.REPLY, Atomics.load(cells, CELL.REPLY), 1);
    drainMessages();
    bind = binds.get(id);
  }
  vu.scenario = {
    ...bind.scenario,
    progress: /** @type {number} */ (floats[FLOAT.PROGRESS]),
    iterationInInstance: Atomics.load(cells, CELL.SCENARIO_ITERATION),
    iterationInTest: Atomics.load(cells, CELL.ITERATION_IN_TEST),
  };
  vu.iterationInScenario = Atomics.load(cells, CELL.ITERATION_IN_SCENARIO);
  vu.iterationInInstance = Atomics.load(cells, CELL.VU_ITERATION);
  vu.group = bind.group;
  /** @type {any} */ (globalThis).__ITER = vu.iterationInScenario;
  const { error, aborted, ms } = invoke(script[bind.fn], bind.fn, bind.arg, false);
  if (error !== null || aborted !== null) {
    Atomics.store(cells, CELL.STATE, IDLE);
    postWithSamples({ type: 'done', result: null, error, aborted, ms });
    return;
  }
  floats[FLOAT.MS] = ms;
  Atomics.store(cells, CELL.STATE, DONE);
  // After DONE is stored: either the main thread's promised look comes later and sees it, or this VU wakes it.
  const now = Date.now();
  const watched = Atomics.load(polled, POLLED_UNTIL) > now - data.polledBase;
  if (!watched || now >= flushBy || vu.samples.length >= 2000) postWithSamples({ type: 'wake' });
}

/**
 * Runs the arrivals of an arrival-rate scenario's board (arrival-board.js)
 * until it closes: claims one, runs it as an iteration, counts it there, and
 * sleeps only when nothing is published. The iteration's own samples are
 * this VU's, like those of its requests; one that threw or aborted the test
 * is reported at once.
 * @param {{ id: number, board: SharedArrayBuffer, iterationInInstance: number, iterationInScenario: number }} msg
 */
function claimArrivals(msg) {
  const bind = /** @type {Bind} */ (binds.get(msg.id));
  const board = boardViews(msg.board);
  const tags = { ...vu.testTags, ...bind.scenario.tags, scenario: bind.scenario.name, group: '' };
  let inInstance = msg.iterationInInstance;
  let inScenario = msg.iterationInScenario;
  for (;;) {
    if (stopping()) return;
    const arrival = claim(board);
    if (arrival === null) {
      if (finished(board)) break;
      const pending = vu.samples.length > 0;
      if (pending && Date.now() >= flushBy) postWithSamples({ type: 'samples' });
      else sleepOnBoard(board, pending ? Math.max(1, flushBy - Date.now()) : 1000);
      continue;
    }
    Atomics.store(cells, CELL.STATE, RUNNING);
    vu.scenario = { ...bind.scenario, progress: arrival.progress, iterationInInstance: arrival.index, iterationInTest: arrival.inTest };
    vu.iterationInScenario = inScenario++;
    vu.iterationInInstance = inInstance++;
    vu.group = bind.group;
    /** @type {any} */ (globalThis).__ITER = vu.iterationInScenario;
    const { error, aborted, ms } = invoke(script[bind.fn], bind.fn, bind.arg, false);
    // Cut at the hard end: the runner stops this thread and counts the iteration as interrupted, not ended.
    if (interrupted()) return;
    const at = Date.now();
    vu.samples.push(
      { metric: 'iterations', type: 'counter', time: false, value: 1, tags, at },
      { metric: 'iteration_duration', type: 'trend', time: true, value: ms, tags, at },
    );
    Atomics.store(cells, CELL.STATE, IDLE);
    markEnded(board);
    if (error !== null || aborted !== null) postWithSamples({ type: 'iteration-failed', error, aborted });
    else if (at >= flushBy || vu.samples.length >= 2000) postWithSamples({ type: 'samples' });
  }
  postWithSamples({ type: 'released', iterationInInstance: inInstance, iterationInScenario: inScenario });
}

/**
 * The VU's life after loading: commands until the runner interrupts it. The
 * main thread bumps the signal cell after posting a message or assigning an
 * iteration, so the VU sleeps only when the count it read before looking for
 * commands is still the count it last acted on: a command that came after
 * that read has changed it.
 */
function serve() {
  let seen = Atomics.load(cells, CELL.SIGNAL);
  for (;;) {
    if (stopping()) return;
    const signalled = Atomics.load(cells, CELL.SIGNAL);
    drainMessages();
    // An iteration cut on a board leaves the cells saying RUNNING, with another iteration's numbers in them.
    if (stopping()) return;
    if (Atomics.load(cells, CELL.STATE) === RUNNING) {
      runAssigned();
      continue;
    }
    if (signalled !== seen) {
      seen = signalled;
      continue;
    }
    const pending = vu.samples.length > 0;
    // Idle, it still looks once a second: a message readable a moment after its signal waits no longer.
    const woke = Atomics.wait(cells, CELL.SIGNAL, seen, pending ? Math.max(1, flushBy - Date.now()) : 1000);
    if (woke === 'timed-out' && vu.samples.length > 0) postWithSamples({ type: 'samples' });
  }
}

if (loaded) serve();
