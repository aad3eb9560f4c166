// The Node runner's `k6` module: check, group, sleep, fail, randomSeed.
import { contextTags, current, emit, refuseBlocking } from './vu-state.js';

/**
 * @param {unknown} value
 * @param {Record<string, (v: unknown) => unknown>} sets
 * @param {Record<string, string>} [tags]
 */
export function check(value, sets, tags = {}) {
  let all = true;
  for (const [name, fn] of Object.entries(sets)) {
    let ok;
    try {
      ok = Boolean(typeof fn === 'function' ? fn(value) : fn);
    } catch (err) {
      ok = false;
      console.error(`check ${name} threw: ${/** @type {Error} */ (err).message}`);
    }
    emit('checks', 'rate', ok ? 1 : 0, { ...contextTags(), ...tags, check: name });
    if (!ok) all = false;
  }
  return all;
}

/**
 * @template T
 * @param {string} name
 * @param {() => T} fn
 * @returns {T}
 */
export function group(name, fn) {
  if (name.includes('::')) throw new Error('group names cannot contain "::"');
  const s = current();
  const outer = s.group;
  s.group = `${outer}::${name}`;
  const started = Date.now();
  try {
    return fn();
  } finally {
    emit('group_duration', 'trend', Date.now() - started, contextTags(), true);
    s.group = outer;
  }
}

/**
 * Refused: it would stop every VU of the runner's thread (vu-state.js refuseBlocking).
 * @param {number} _seconds
 * @returns {never}
 */
export function sleep(_seconds) {
  return refuseBlocking('sleep()', 'await a k6/timers setTimeout instead');
}

/** @param {string} [message] */
export function fail(message = '') {
  throw new Error(message);
}

/** Accepted for compatibility; Math.random is not seedable here. */
export function randomSeed(/** @type {number} */ _seed) {}

export default { check, group, sleep, fail, randomSeed };
