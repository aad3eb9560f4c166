// Phase checks: each is one named fact of the contract (an exact admission
// count, coverage, balance, pinned identity...). Checks are tagged with
// their phase, and every phase has the threshold checks{phase:NAME} rate==1.
import { check } from 'k6';

/**
 * Records one check of `phase`; returns whether it held.
 * @param {string} phase
 * @param {string} name numbered by step, e.g. '02 noisy tenant: exactly 4 admitted'
 * @param {boolean} holds
 * @param {string} [detail] printed when the check fails
 */
export function verify(phase, name, holds, detail) {
  const ok = check(null, { [name]: () => holds }, { phase });
  if (!ok) console.error(`check failed: ${name}${detail ? ` (${detail})` : ''}`);
  return ok;
}

