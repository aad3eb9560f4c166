// Synchronous calls from a VU thread to the main thread. k6 scripts are
// written as sequential code whose http calls block; the Node runner keeps
// that meaning by running each VU in its own worker thread, which posts the
// request to the main thread (where undici performs it, concurrently with
// every other VU's) and then blocks in Atomics.wait until the main thread has
// posted the reply and raised the flag. The VU's own thread is the only
// thing that waits, exactly as a k6 VU's goroutine does.
//
// Of the VU's shared cells (control-cells.js), REPLY is raised when a reply
// is ready and INTERRUPT when the runner interrupts the VU (a scenario's
// hard end). A thread blocked in Atomics.wait cannot be terminated, so
// every wait here also watches INTERRUPT and the runner wakes both before
// terminating.
//
// An interrupted iteration ends as it does in k6 when the cut falls in a
// request: the script's own catch and finally blocks have no effect. The
// wait throws, and from then on the VU says nothing (see `interrupted`), so a
// finally block cannot report a phase cut at its budget as one that failed.
// (k6 returns from a sleep the cut falls in and lets the script run on, its
// requests failing at once; load/scale.js allows for both.)
import { receiveMessageOnPort } from 'node:worker_threads';
import { CELL } from './control-cells.js';
import { flushSamples, takeSamples } from './vu-state.js';

/** @type {{ port: import('node:worker_threads').MessagePort, flag: Int32Array } | null} */
let bridge = null;
let interruptSeen = false;

/** True once a wait of this VU saw the runner interrupt it; its console is mute from then on. */
export function interrupted() {
  return interruptSeen;
}

function interrupt() {
  interruptSeen = true;
  return new Error('iteration interrupted');
}

/**
 * @param {import('node:worker_threads').MessagePort} port
 * @param {SharedArrayBuffer} flagBuffer
 */
export function connectBridge(port, flagBuffer) {
  bridge = { port, flag: new Int32Array(flagBuffer) };
}

/**
 * Posts `message` and blocks until the main thread replies.
 * @param {unknown} message
 * @returns {any}
 */
export function callMain(message) {
  if (!bridge) throw new Error('the VU is not connected to the runner');
  Atomics.store(bridge.flag, CELL.REPLY, 0);
  // Samples produced so far reach the main thread with the request, while this thread waits.
  bridge.port.postMessage({ .../** @type {object} */ (message), samples: takeSamples() });
  for (;;) {
    Atomics.wait(bridge.flag, CELL.REPLY, 0, 1000);
    if (Atomics.load(bridge.flag, CELL.INTERRUPT) !== 0) throw interrupt();
    if (Atomics.load(bridge.flag, CELL.REPLY) === 0) continue;
    const reply = receiveMessageOnPort(bridge.port);
    if (reply) return reply.message;
    // The flag can be seen a moment before the message is readable.
    Atomics.wait(bridge.flag, CELL.REPLY, 1, 1);
  }
}

/** Blocks this VU for `seconds` without busy waiting. */
export function blockFor(/** @type {number} */ seconds) {
  if (!(seconds > 0)) return;
  // Samples held from earlier iterations leave before a wait the runner may cut, as they do with a request.
  if (bridge) flushSamples();
  const cells = bridge ? bridge.flag : new Int32Array(new SharedArrayBuffer(8));
  Atomics.wait(cells, CELL.INTERRUPT, 0, seconds * 1000);
  if (Atomics.load(cells, CELL.INTERRUPT) !== 0) throw interrupt();
}
