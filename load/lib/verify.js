// Phase checks: each is one named fact of the contract (an exact admission
// count, coverage, balance, pinned identity...). Checks are tagged with
// their phase, and every phase has the threshold checks{phase:NAME} rate==1.
// A check that fails in an iteration whose outcome an answer left open
// (registry.js: an indeterminate answer, a resend, contention) is not judged: the request may or may not have taken effect
// ([failure-indeterminate]), so the failure proves nothing. It is journaled
// as unjudged instead, and the report says the run could not judge it.
import { check } from 'k6';
import { journal } from './journal.js';
import { unjudgeableThisIteration } from './registry.js';

/**
 * Records one check of `phase`; returns whether it held.
 * @param {string} phase
 * @param {string} name numbered by step, e.g. '02 noisy tenant: exactly 4 admitted'
 * @param {boolean} holds
 * @param {string} [detail] printed when the check fails
 */
export function verify(phase, name, holds, detail) {
  if (!holds && unjudgeableThisIteration()) {
    journal({ k: 'unjudged', phase, check: name });
    console.error(`check not judged: ${name}${detail ? ` (${detail})` : ''}: an answer before it was indeterminate`);
    return false;
  }
  const ok = check(null, { [name]: () => holds }, { phase });
  if (!ok) console.error(`check failed: ${name}${detail ? ` (${detail})` : ''}`);
  return ok;
}
