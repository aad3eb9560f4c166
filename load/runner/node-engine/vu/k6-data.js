// The Node runner's `k6/data`: SharedArray, built once per test in the
// init context and frozen, so scripts cannot tell it from k6's.
import { requireInit } from './vu-state.js';

// The arrays of the test this thread runs. A VU thread ends with its test;
// the runner's own thread runs the async VUs of one test after another, and
// LocalScript forgets them between tests, or the next test would read this
// one's data. Kept on globalThis so that every copy of this file a thread
// evaluates (under tsx, the runner's and the staged script's) sees one set.
const ARRAYS = Symbol.for('fleetproof.node-runner.shared-arrays');

/** @returns {Map<string, readonly unknown[]>} */
function arrays() {
  return (/** @type {any} */ (globalThis)[ARRAYS] ??= new Map());
}

/** Drops this thread's arrays: the next test builds its own. */
export function forgetSharedArrays() {
  delete (/** @type {any} */ (globalThis)[ARRAYS]);
}

/** @param {unknown} value */
function deepFreeze(value) {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export class SharedArray {
  /**
   * @param {string} name
   * @param {() => unknown[]} build
   */
  constructor(name, build) {
    requireInit('SharedArray');
    let data = arrays().get(name);
    if (!data) {
      const built = build();
      if (!Array.isArray(built)) throw new Error('SharedArray: the function must return an array');
      // Round-trip through JSON as k6 does: only JSON data survives.
      data = /** @type {readonly unknown[]} */ (deepFreeze(JSON.parse(JSON.stringify(built))));
      arrays().set(name, data);
    }
    return /** @type {any} */ (data);
  }
}

export default { SharedArray };
