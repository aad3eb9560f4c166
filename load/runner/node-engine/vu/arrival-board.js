// The arrivals of one arrival-rate scenario, handed from the main thread to
// the scenario's VU threads through memory they share. The main thread
// publishes each arrival when its time comes, if a VU is free for it, and
// drops it otherwise (dropped_iterations, as in k6); idle VUs claim what is
// published, and sleep only when nothing is. At thousands of arrivals a
// second the VUs are rarely idle long enough to sleep, so most iterations
// start without the main thread waking anyone: on a virtual machine each
// such wake-up costs tens of microseconds of CPU on both sides.
//
// Header cells (Int32):
//   DUE        arrivals published so far; arrival k gets iteration number k
//   CLAIMED    arrivals claimed by a VU; CLAIMED <= DUE
//   AVAILABLE  VUs on the board with no iteration running and none promised
//   SLEEPERS   VUs asleep on GENERATION, or about to be
//   GENERATION bumped to wake sleepers
//   CLOSED     1 once the main thread publishes nothing more
//   COMPLETED  iterations that ran to their end (failed ones included)
// Ring (Float64, two per slot): arrival k's iteration number in the whole
// test and exec.scenario.progress, in slot k % slots.
//
// Why it holds together:
// - An arrival is published only against a free VU: the main thread, the
//   only one that lowers AVAILABLE, reads it above zero and lowers it before
//   raising DUE. It raises it itself when it hands a VU the board, so a VU
//   counts as free from then on, not only once its thread has read the
//   message (an arrival due at once would otherwise find none free); a VU
//   raises it when an iteration ends. So every published arrival is claimed
//   by a VU that is idle now, and starts at once; "no free VU" means what it
//   means in k6.
// - The ring never loses an arrival a VU is claiming: published but
//   unclaimed arrivals never outnumber the VUs (above), and the ring has more
//   slots than VUs, so slot k is rewritten only after CLAIMED passed k. A VU
//   reads slot k before its compare-and-swap of CLAIMED from k to k + 1; if
//   the slot was rewritten meanwhile, CLAIMED had moved on and the swap fails.
// - No arrival waits for a sleeper that nobody wakes: a VU goes to sleep
//   only after raising SLEEPERS and then seeing nothing to claim; the main
//   thread raises DUE and then reads SLEEPERS. With sequentially consistent
//   atomics one of the two sees the other's write: the VU finds the arrival,
//   or the main thread bumps GENERATION, which the VU read before, so its
//   wait returns at once or is woken.

export const BOARD = { DUE: 0, CLAIMED: 1, AVAILABLE: 2, SLEEPERS: 3, GENERATION: 4, CLOSED: 5, COMPLETED: 6 };
const HEADER_BYTES = 8 * 4;

/** Slots for a scenario of at most `maxVUs` VUs: always more slots than VUs. */
function slotsFor(/** @type {number} */ maxVUs) {
  return Math.max(1024, 2 * maxVUs + 2);
}

/** @param {number} maxVUs */
export function createBoard(maxVUs) {
  return new SharedArrayBuffer(HEADER_BYTES + slotsFor(maxVUs) * 16);
}

/** The two views of a board's memory. */
export function boardViews(/** @type {SharedArrayBuffer} */ buffer) {
  const ring = new Float64Array(buffer, HEADER_BYTES);
  return { cells: new Int32Array(buffer, 0, HEADER_BYTES / 4), ring, slots: ring.length / 2 };
}

/**
 * Main thread: publishes the next arrival if a VU is free for it.
 * @param {ReturnType<typeof boardViews>} b
 * @param {number} inTest the arrival's iteration number in the whole test
 * @param {number} progress exec.scenario.progress at its start
 * @returns {boolean} false when no VU is free: the arrival is dropped
 */
export function publish(b, inTest, progress) {
  if (Atomics.load(b.cells, BOARD.AVAILABLE) <= 0) return false;
  Atomics.sub(b.cells, BOARD.AVAILABLE, 1);
  const slot = (Atomics.load(b.cells, BOARD.DUE) % b.slots) * 2;
  b.ring[slot] = inTest;
  b.ring[slot + 1] = progress;
  Atomics.add(b.cells, BOARD.DUE, 1);
  return true;
}

/** Main thread: wakes as many sleeping VUs as arrivals were just published. */
export function wakeFor(/** @type {ReturnType<typeof boardViews>} */ b, /** @type {number} */ published) {
  if (published === 0 || Atomics.load(b.cells, BOARD.SLEEPERS) === 0) return;
  Atomics.add(b.cells, BOARD.GENERATION, 1);
  Atomics.notify(b.cells, BOARD.GENERATION, published);
}

/** Main thread: publishes nothing more; every VU leaves once the published arrivals are claimed. */
export function closeBoard(/** @type {ReturnType<typeof boardViews>} */ b) {
  Atomics.store(b.cells, BOARD.CLOSED, 1);
  Atomics.add(b.cells, BOARD.GENERATION, 1);
  Atomics.notify(b.cells, BOARD.GENERATION);
}

/**
 * VU thread: claims the oldest published arrival.
 * @param {ReturnType<typeof boardViews>} b
 * @returns {{ index: number, inTest: number, progress: number } | null} null when none is published
 */
export function claim(b) {
  for (;;) {
    const k = Atomics.load(b.cells, BOARD.CLAIMED);
    if (k >= Atomics.load(b.cells, BOARD.DUE)) return null;
    const slot = (k % b.slots) * 2;
    const inTest = /** @type {number} */ (b.ring[slot]);
    const progress = /** @type {number} */ (b.ring[slot + 1]);
    if (Atomics.compareExchange(b.cells, BOARD.CLAIMED, k, k + 1) === k) return { index: k, inTest, progress };
  }
}

/** Main thread: a VU is handed the board, and is free for an arrival from now on. */
export function enlist(/** @type {ReturnType<typeof boardViews>} */ b) {
  Atomics.add(b.cells, BOARD.AVAILABLE, 1);
}

/** VU thread: an iteration ran to its end (failed or not), and the VU is free again. */
export function markEnded(/** @type {ReturnType<typeof boardViews>} */ b) {
  Atomics.add(b.cells, BOARD.COMPLETED, 1);
  Atomics.add(b.cells, BOARD.AVAILABLE, 1);
}

/** Main thread: iterations of the board that ran to their end. */
export function completedOn(/** @type {ReturnType<typeof boardViews>} */ b) {
  return Atomics.load(b.cells, BOARD.COMPLETED);
}

/** Main thread: arrivals published, which is iterations started. */
export function publishedOn(/** @type {ReturnType<typeof boardViews>} */ b) {
  return Atomics.load(b.cells, BOARD.DUE);
}

/** True once the board is closed and every published arrival claimed: the VU leaves. */
export function finished(/** @type {ReturnType<typeof boardViews>} */ b) {
  return Atomics.load(b.cells, BOARD.CLOSED) === 1 && Atomics.load(b.cells, BOARD.CLAIMED) >= Atomics.load(b.cells, BOARD.DUE);
}

/**
 * VU thread: sleeps until an arrival may be published, the board closes, or
 * `ms` pass.
 * @param {ReturnType<typeof boardViews>} b
 * @param {number} ms
 */
export function sleepOnBoard(b, ms) {
  const generation = Atomics.load(b.cells, BOARD.GENERATION);
  Atomics.add(b.cells, BOARD.SLEEPERS, 1);
  if (Atomics.load(b.cells, BOARD.CLAIMED) >= Atomics.load(b.cells, BOARD.DUE) && Atomics.load(b.cells, BOARD.CLOSED) === 0) {
    Atomics.wait(b.cells, BOARD.GENERATION, generation, ms);
  }
  Atomics.sub(b.cells, BOARD.SLEEPERS, 1);
}
