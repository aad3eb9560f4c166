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
 * @param {() => Promise<void>} flow
 */
async function timed(phase, flow) {
  if (previousPhase(phase) === 'retry_storm') await restoreStormPolicy(data, registryClient(plan, 'retry_storm'));
  if (previousPhase(phase) === 'noisy_tenant') await restoreNoisyPolicy(data, registryClient(plan, 'noisy_tenant'));
  const started = Date.now();
  const cutAt = exec.scenario.startTime + budgetS(plan.profile.phases.find((p) => p.name === phase) || {}) * 1000;
  let completed = false;
  try {
    await flow();
    completed = true;
  } finally {
    // A phase cut at its budget journals nothing: the engine stops its
    // iteration at whatever it awaits, and no code of it runs after that.
    // One that threw journals completed: false. Past the budget the phase
    // counts as cut even when it finished: what the flow saw then was no
    // longer a phase running on its own.
    if (Date.now() < cutAt) journal({ k: 'phase', phase, started, ms: Date.now() - started, completed });
  }
}

/** @param {string} phase */
function previousPhase(phase) {
  const names = plan.profile.phases.map((p) => p.name);
  const at = names.indexOf(phase);
  return at > 0 ? names[at - 1] : null;
}

export async function setup() {
  const started = Date.now();
  const result = await seedDataset(plan, data, params('seed'));
  // The seeding instance measured from its first write to its last acknowledged one; the others waited.
  const ms = result.seeded_records > 0 ? result.seed_ms : Date.now() - started;
  journal({ k: 'phase', phase: 'seed', started: Date.now() - ms, ms, completed: true });
  // The scenarios' schedule starts now: a merge compares it across the parts of a distributed run.
  return { ...result, load_started_ms: Date.now() };
}

export async function versionRolloutPhase() {
  await timed('version_rollout', () => versionRollout(plan, data));
}
export async function noisyTenantPhase() {
  await timed('noisy_tenant', () => noisyTenant(plan, data, params('noisy_tenant')));
}
export async function retryStormPhase() {
  await timed('retry_storm', () => retryStorm(plan, data, params('retry_storm')));
}
export async function catalogWalkPhase() {
  await timed('catalog_walk', () => catalogWalk(plan, data, params('catalog_walk')));
}
export async function parallelCatalogPhase() {
  await timed('parallel_catalog', () => parallelCatalog(plan, data, params('parallel_catalog')));
}
export async function concurrentRoutesPhase() {
  await timed('concurrent_routes', () => concurrentRoutes(plan, data, params('concurrent_routes')));
}
export async function retryRotationPhase() {
  await timed('retry_rotation', () => retryRotation(plan, data, params('retry_rotation'), params('concurrent_routes')));
}
export async function leaseChurnPhase() {
  await timed('lease_churn', () => leaseChurn(plan, data, params('lease_churn')));
}
export async function sustainedRoutesPhase() {
  await sustainedRoute(plan, data);
}
export async function sustainedCatalogPhase() {
  await sustainedCatalog(plan, data, params('sustained_catalog'));
}
export async function heartbeatsPhase() {
  await heartbeat(plan, data);
}
export async function sustainedLeaseChurnPhase() {
  await sustainedLeaseChurn(plan, data, params('sustained_lease_churn'));
}
export async function replicaMonitorPhase() {
  await replicaMonitor(plan, data);
}
export async function breakpointRoutesPhase() {
  await sustainedRoute(plan, data, BREAKPOINT_PHASE, exec.scenario.name);
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
