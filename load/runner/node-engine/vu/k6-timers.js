// The Node runner's `k6/timers`: setTimeout and setInterval for VUs
// (virtual-users.ts), the way an async k6 script waits without blocking its
// VU (`await new Promise((r) => setTimeout(r, ms))`). A timer belongs to the
// VU that set it: when the runner interrupts the VU, its timers are cleared
// and never fire, so the iteration's code after the wait never runs, as in
// k6.
import { current } from './vu-state.js';

/** @param {string} what */
function vuOf(what) {
  const vu = current().vu;
  if (!vu) throw new Error(`${what} is only available to a VU (setup, an iteration, teardown), not in the init context`);
  return vu;
}

/**
 * @param {(...args: unknown[]) => void} fn
 * @param {number} [ms]
 * @param {...unknown} args
 */
export function setTimeout(fn, ms = 0, ...args) {
  const vu = vuOf('setTimeout');
  const timer = globalThis.setTimeout(() => {
    vu.timers.delete(timer);
    if (!vu.interrupted) fn(...args);
  }, ms);
  vu.timers.add(timer);
  return timer;
}

/**
 * @param {(...args: unknown[]) => void} fn
 * @param {number} [ms]
 * @param {...unknown} args
 */
export function setInterval(fn, ms = 0, ...args) {
  const vu = vuOf('setInterval');
  const timer = globalThis.setInterval(() => {
    if (!vu.interrupted) fn(...args);
  }, ms);
  vu.timers.add(timer);
  return timer;
}

/** @param {NodeJS.Timeout | undefined} timer */
export function clearTimeout(timer) {
  if (timer === undefined) return;
  current().vu?.timers.delete(timer);
  globalThis.clearTimeout(timer);
}

export const clearInterval = clearTimeout;

export default { setTimeout, setInterval, clearTimeout, clearInterval };
