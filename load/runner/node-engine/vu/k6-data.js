// The Node runner's `k6/data`: SharedArray, built once per VU thread in the
// init context and frozen, so scripts cannot tell it from k6's.
import { requireInit } from './vu-state.js';

/** @type {Map<string, readonly unknown[]>} */
const arrays = new Map();

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
