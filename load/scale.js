// fleetproof scale qualification (fleetproof-scale/v1) for any
// fleetproof-registry/v1 implementation, over HTTP.
//
//   fleetproof load --target URL --key FILE --profile smoke|aip-fleet-slo-v1|sustained|breakpoint
//
// writes the run plan (run id, resolved profile, tokens) and runs this file
// with k6, or with fleetproof's Node runner where k6 is absent. Only k6's own
// modules are imported; the tests run it on k6 v1.3.0.
// setup() seeds the dataset through the batch API; every other phase is a
// scenario (lib/options.js), one flow per file under flows/.
import { catalogWalk, parallelCatalog } from './flows/catalog.js';
import { concurrentRoutes } from './flows/concurrent-routes.js';
import { leaseChurn } from './flows/lease-churn.js';
import { retryRotation } from './flows/retry-rotation.js';
import { restoreStormPolicy, retryStorm } from './flows/retry-storm.js';
import { noisyTenant, restoreNoisyPolicy } from './flows/noisy-tenant.js';
import { seedDataset } from './flows/seed-dataset.js';
import { versionRollout } from './flows/version-rollout.js';
import { heartbeat, replicaMonitor, sustainedCatalog, sustainedLeaseChurn, sustainedRoute } from './flows/sustained.js';
import exec from 'k6/execution';
import { journal } from './lib/journal.js';
import { budgetS, buildOptions } from './lib/options.js';
import { registryClient } from './lib/registry.js';
import { datasetOf, loadRunPlan } from './lib/plan.js';
import { BREAKPOINT_PHASE } from './lib/breakpoint-ramp.js';
import { phaseParams } from './lib/fleet-facts.js';
import { buildSummary } from './lib/summary.js';

const plan = loadRunPlan();
const data = datasetOf(plan);
/** @param {string} name */
const params = (name) => phaseParams(plan, name) || {};

export const options = buildOptions(plan);

/**
 * Runs one qualification phase and journals its wall time, from which the
 * report derives the phase's throughput.
 * @param {string} phase
 * @param {() => void} flow
 */
function timed(phase, flow) {
  if (previousPhase(phase) === 'retry_storm') restoreStormPolicy(data, registryClient(plan, 'retry_storm'));
  if (previousPhase(phase) === 'noisy_tenant') restoreNoisyPolicy(data, registryClient(plan, 'noisy_tenant'));
  const started = Date.now();
  const cutAt = exec.scenario.startTime + budgetS(plan.profile.phases.find((p) => p.name === phase) || {}) * 1000;
  let completed = false;
  try {
    flow();
    completed = true;
  } finally {
    // A phase cut at its budget journals nothing; one that threw journals
    // completed: false. Past the budget the phase was cut even when it runs
    // on: k6 returns from a sleep the cut fell in and fails every request
    // after it at once, and what the flow then saw is not the registry's doing.
    if (Date.now() < cutAt) journal({ k: 'phase', phase, started, ms: Date.now() - started, completed });
  }
}

/** @param {string} phase */
function previousPhase(phase) {
  const names = plan.profile.phases.map((p) => p.name);
  const at = names.indexOf(phase);
  return at > 0 ? names[at - 1] : null;
}

export function setup() {
  const started = Date.now();
  const result = seedDataset(plan, data, params('seed'));
  // The seeding instance measured from its first write to its last acknowledged one; the others waited.
  const ms = result.seeded_records > 0 ? result.seed_ms : Date.now() - started;
  journal({ k: 'phase', phase: 'seed', started: Date.now() - ms, ms, completed: true });
  return result;
}

export function versionRolloutPhase() {
  timed('version_rollout', () => versionRollout(plan, data));
}
export function noisyTenantPhase() {
  timed('noisy_tenant', () => noisyTenant(plan, data, params('noisy_tenant')));
}
export function retryStormPhase() {
  timed('retry_storm', () => retryStorm(plan, data, params('retry_storm')));
}
export function catalogWalkPhase() {
  timed('catalog_walk', () => catalogWalk(plan, data, params('catalog_walk')));
}
export function parallelCatalogPhase() {
  timed('parallel_catalog', () => parallelCatalog(plan, data, params('parallel_catalog')));
}
export function concurrentRoutesPhase() {
  timed('concurrent_routes', () => concurrentRoutes(plan, data, params('concurrent_routes')));
}
export function retryRotationPhase() {
  timed('retry_rotation', () => retryRotation(plan, data, params('retry_rotation'), params('concurrent_routes')));
}
export function leaseChurnPhase() {
  timed('lease_churn', () => leaseChurn(plan, data, params('lease_churn')));
}
export function sustainedRoutesPhase() {
  sustainedRoute(plan, data);
}
export function sustainedCatalogPhase() {
  sustainedCatalog(plan, data, params('sustained_catalog'));
}
export function heartbeatsPhase() {
  heartbeat(plan, data);
}
export function sustainedLeaseChurnPhase() {
  sustainedLeaseChurn(plan, data, params('sustained_lease_churn'));
}
export function replicaMonitorPhase() {
  replicaMonitor(plan, data);
}
export function breakpointRoutesPhase() {
  sustainedRoute(plan, data, BREAKPOINT_PHASE, exec.scenario.name);
}

/** @param {any} summaryData */
export function handleSummary(summaryData) {
  const summary = buildSummary(plan, summaryData);
  const verdict = summary.thresholds_passed ? 'thresholds held' : 'THRESHOLDS FAILED';
  return {
    [__ENV.FLEETPROOF_SUMMARY_FILE || 'fleetproof-load-summary.json']: JSON.stringify(summary, null, 2),
    stdout: `fleetproof ${plan.profile.name} run ${plan.run_id}: ${verdict}\n`,
  };
}
