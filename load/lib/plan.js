// The run plan a load script executes: written by `fleetproof load` before
// the run (run id, target, resolved profile, tokens minted in advance) and
// read here with open() in the init context. Nothing is signed inside k6.
import { SharedArray } from 'k6/data';
import exec from 'k6/execution';
import { sha256 } from 'k6/crypto';
import { scaleDataset } from './dataset.js';
import { phaseParams } from './fleet-facts.js';

/**
 * @typedef {object} PhasePlan
 * @property {string} name
 * @property {'after_previous' | 'with_previous'} [start]
 * @property {number} [budget_s]
 * @property {Record<string, number>} [params]
 */

/**
 * @typedef {object} ThresholdPlan
 * @property {string} id
 * @property {string} label
 * @property {string} metric
 * @property {string} expression
 * @property {string} unit
 * @property {string} [source]
 */

/**
 * @typedef {object} ProfilePlan
 * @property {string} name
 * @property {string} format
 * @property {string} phase_checks
 * @property {number} [duration_s]
 * @property {number} [max_dropped_iterations]
 * @property {boolean} [budgets_judge_speed]
 * @property {import('./dataset.js').Dimensions} dataset
 * @property {PhasePlan[]} phases
 * @property {ThresholdPlan[]} thresholds
 */

/**
 * @typedef {object} RunPlan
 * @property {string} run_id
 * @property {string} target
 * @property {ProfilePlan} profile
 * @property {{ control: string, tenants: string[] }} tokens  empty when static headers authenticate
 * @property {Record<string, string>} [headers]  static headers sent on every request (--header)
 * @property {number} lease_until_ms  lease end of every seeded replica
 * @property {import('../../contract/records.ts').RegistryLimits} [limits]  the target's, when the plan was made
 */

/** @returns {RunPlan} */
export function loadRunPlan() {
  const file = __ENV.FLEETPROOF_RUN_FILE;
  if (!file) throw new Error('FLEETPROOF_RUN_FILE is not set: start the script with `fleetproof load`, which writes the run plan');
  // One parsed copy shared by every VU instead of one per VU.
  return new SharedArray('fleetproof-run-plan', () => [JSON.parse(open(file))])[0];
}

/** @param {string} text */
export function sha256Hex(text) {
  return sha256(text, 'hex');
}

/** @param {RunPlan} plan */
export function datasetOf(plan) {
  const seed = phaseParams(plan, 'seed');
  const scopeLimit = seed ? seed['scope_limit'] : undefined;
  return scaleDataset({
    runId: plan.run_id,
    dimensions: plan.profile.dataset,
    sha256Hex,
    leaseUntilMs: plan.lease_until_ms,
    ...(scopeLimit ? { scopeLimit } : {}),
  });
}

/**
 * A bound of a k6 execution segment: a fraction ("1/2"), a decimal ("0.5") or
 * a percentage ("50%").
 * @param {string} text
 */
function segmentBound(text) {
  if (text.endsWith('%')) return Number(text.slice(0, -1)) / 100;
  const [num, den] = text.split('/');
  return den ? Number(num) / Number(den) : Number(text);
}

/**
 * This instance's share of the test, from its execution segment ("0:1/2",
 * "1/2:1"): where it starts and ends; 0 and 1 for a run that is not split.
 * @returns {[number, number]}
 */
export function segmentBounds() {
  const segment = exec.test.options.executionSegment;
  if (!segment) return [0, 1];
  const [from, to] = String(segment).split(':');
  return [segmentBound(from || '0'), segmentBound(to || '1')];
}
