// The Node runner's `k6/timers`: setTimeout and setInterval for async VUs
// (local-vus.ts), the way an async k6 script waits without blocking its VU
// (`await new Promise((r) => setTimeout(r, ms))`). A timer belongs to the VU
// that set it: when the runner interrupts the VU, its timers are cleared and
// never fire, so the iteration's code after the wait never runs, as in k6.
// A VU thread never returns to an event loop, so its timers would never
// fire: it is refused there.
import { current } from './vu-state.js';

/** @param {string} what */
function timersOfAsyncVu(what) {
  const local = current().local;
  if (!local)
    throw new Error(
      `${what} needs an async function: the Node runner runs those in its own thread, and a VU thread never returns to an event loop`,
    );
  return local;
}

/**
 * @param {(...args: unknown[]) => void} fn
 * @param {number} [ms]
 * @param {...unknown} args
 */
export function setTimeout(fn, ms = 0, ...args) {
  const local = timersOfAsyncVu('setTimeout');
  const timer = globalThis.setTimeout(() => {
    local.timers.delete(timer);
    if (!local.interrupted) fn(...args);
  }, ms);
  local.timers.add(timer);
  return timer;
}

/**
 * @param {(...args: unknown[]) => void} fn
 * @param {number} [ms]
 * @param {...unknown} args
 */
export function setInterval(fn, ms = 0, ...args) {
  const local = timersOfAsyncVu('setInterval');
  const timer = globalThis.setInterval(() => {
    if (!local.interrupted) fn(...args);
  }, ms);
  local.timers.add(timer);
  return timer;
}

/** @param {NodeJS.Timeout | undefined} timer */
export function clearTimeout(timer) {
  if (timer === undefined) return;
  current().local?.timers.delete(timer);
  globalThis.clearTimeout(timer);
}

export const clearInterval = clearTimeout;

export default { setTimeout, setInterval, clearTimeout, clearInterval };
