// The Node runner's `k6/data`: SharedArray, built once per test in the
// init context and frozen, so scripts cannot tell it from k6's.
import { current, requireInit } from './vu-state.js';

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
    // The arrays of the test whose script is loading: several tests may load theirs in this thread.
    const arrays = /** @type {import('./vu-state.js').ScriptContext} */ (current().script).sharedArrays;
    let data = arrays.get(name);
    if (!data) {
      const built = build();
      if (!Array.isArray(built)) throw new Error('SharedArray: the function must return an array');
      // Round-trip through JSON as k6 does: only JSON data survives.
      data = /** @type {readonly unknown[]} */ (deepFreeze(JSON.parse(JSON.stringify(built))));
      arrays.set(name, data);
    }
    return /** @type {any} */ (data);
  }
}

export default { SharedArray };
