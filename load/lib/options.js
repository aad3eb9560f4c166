// k6 options from the run plan: one scenario per phase, thresholds from the
// contract. Qualification phases run one after another: each starts when the
// previous phase's budget has elapsed (startTime) and is cut at its own
// budget (maxDuration, no graceful stop), so two phases never overlap however
// fast or slow the target is. Phases marked with_previous start together.
// The breakpoint phase is one constant-rate scenario per step of its ramp
// (breakpoint_<rate>, one after the other), so every metric says which rate
// it was measured at. Each step's thresholds abort the test (abortOnFail):
// the ramp ends at the first step that breaks, instead of loading a broken
// registry harder. An abort cuts the iterations in flight; each journals its
// action before resolving, and the runner settles what they left held.
import { BREAKPOINT_PHASE, breakpointRates, stepScenario, stepThresholds } from './breakpoint-ramp.js';

/** Export name in scale.js of each phase's scenario function. */
export const PHASE_EXEC = {
  version_rollout: 'versionRolloutPhase',
  noisy_tenant: 'noisyTenantPhase',
  retry_storm: 'retryStormPhase',
  catalog_walk: 'catalogWalkPhase',
  parallel_catalog: 'parallelCatalogPhase',
  concurrent_routes: 'concurrentRoutesPhase',
  retry_rotation: 'retryRotationPhase',
  lease_churn: 'leaseChurnPhase',
  sustained_routes: 'sustainedRoutesPhase',
  sustained_catalog: 'sustainedCatalogPhase',
  heartbeats: 'heartbeatsPhase',
  sustained_lease_churn: 'sustainedLeaseChurnPhase',
  replica_monitor: 'replicaMonitorPhase',
  breakpoint_routes: 'breakpointRoutesPhase',
};

/** The arrival rate and its time unit of an open-model phase. */
export const RATE_PHASES = {
  sustained_routes: (/** @type {Record<string, number>} */ p) => ({ rate: p['rate'] || 1, timeUnit: '1s' }),
  sustained_catalog: (/** @type {Record<string, number>} */ p) => ({ rate: p['rate'] || 1, timeUnit: '1s' }),
  heartbeats: (/** @type {Record<string, number>} */ p) => ({ rate: p['rate'] || 1, timeUnit: '1s' }),
  replica_monitor: (/** @type {Record<string, number>} */ p) => ({ rate: p['rate'] || 1, timeUnit: '1s' }),
  sustained_lease_churn: (/** @type {Record<string, number>} */ p) => ({ rate: 1, timeUnit: `${p['every_s'] || 5}s` }),
};

const SUSTAINED_GRACE_S = 5;

/** @param {number} s */
const secs = (s) => `${Math.round(s * 1000)}ms`;

/**
 * A qualification phase's budget: its scenario's maxDuration, at which k6 cuts it.
 * @param {{ budget_s?: number }} phase
 */
export function budgetS(phase) {
  return phase.budget_s || 60;
}

/**
 * @param {import('./plan.js').RunPlan} plan
 * @returns {import('k6/options').Options}
 */
export function buildOptions(plan) {
  const profile = plan.profile;
  const duration = profile.duration_s || 60;
  /** @type {Record<string, import('k6/options').Scenario>} */
  const scenarios = {};
  let groupStart = 0;
  let groupEnd = 0;
  for (const phase of profile.phases) {
    const params = phase.params || {};
    if (phase.name === 'seed') continue;
    const exec = /** @type {Record<string, string>} */ (PHASE_EXEC)[phase.name];
    if (!exec) throw new Error(`no scenario function for phase ${phase.name}`);
    if (phase.start !== 'with_previous') groupStart = groupEnd;
    const tags = { phase: phase.name };
    const rateOf = /** @type {Record<string, (p: Record<string, number>) => { rate: number, timeUnit: string }>} */ (RATE_PHASES)[
      phase.name
    ];
    if (phase.name === BREAKPOINT_PHASE) {
      const stepS = params['step_s'] || 10;
      breakpointRates(params).forEach((rate, k) => {
        scenarios[stepScenario(rate)] = {
          executor: 'constant-arrival-rate',
          rate,
          timeUnit: '1s',
          duration: secs(stepS),
          preAllocatedVUs: params['pre_allocated_vus'] || 1,
          maxVUs: params['max_vus'] || params['pre_allocated_vus'] || 1,
          startTime: secs(groupStart + k * stepS),
          gracefulStop: secs(SUSTAINED_GRACE_S),
          exec,
          tags,
        };
        groupEnd = Math.max(groupEnd, groupStart + (k + 1) * stepS + SUSTAINED_GRACE_S);
      });
    } else if (rateOf) {
      scenarios[phase.name] = {
        executor: 'constant-arrival-rate',
        ...rateOf(params),
        duration: secs(duration),
        preAllocatedVUs: params['pre_allocated_vus'] || 1,
        maxVUs: params['max_vus'] || params['pre_allocated_vus'] || 1,
        startTime: secs(groupStart),
        gracefulStop: secs(SUSTAINED_GRACE_S),
        exec,
        tags,
      };
      groupEnd = Math.max(groupEnd, groupStart + duration + SUSTAINED_GRACE_S);
    } else {
      const budget = budgetS(phase);
      scenarios[phase.name] = {
        executor: 'per-vu-iterations',
        vus: 1,
        iterations: 1,
        maxDuration: secs(budget),
        gracefulStop: '0s',
        startTime: secs(groupStart),
        exec,
        tags,
      };
      groupEnd = Math.max(groupEnd, groupStart + budget);
    }
  }

  /** @type {Record<string, (string | { threshold: string, abortOnFail: boolean })[]>} */
  const thresholds = {};
  const add = (/** @type {string} */ metric, /** @type {string | { threshold: string, abortOnFail: boolean }} */ expression) =>
    (thresholds[metric] = thresholds[metric] || []).push(expression);
  for (const t of profile.thresholds) add(t.metric, t.expression);
  const ramp = profile.phases.find((p) => p.name === BREAKPOINT_PHASE);
  for (const rate of ramp ? breakpointRates(ramp.params || {}) : []) {
    for (const t of stepThresholds(profile.thresholds, rate)) add(t.metric, { threshold: t.expression, abortOnFail: true });
  }
  for (const phase of profile.phases) {
    add(`checks{phase:${phase.name}}`, profile.phase_checks);
    // Always true: declares the per-phase sub-metrics so the summary holds them.
    add(`http_req_duration{phase:${phase.name}}`, 'max>=0');
    add(`http_reqs{phase:${phase.name}}`, 'count>=0');
    add(`fleetproof_resend_wait_ms{phase:${phase.name}}`, 'count>=0');
    // An arrival-rate phase that could not start its iterations did not put its rate on the target.
    if (/** @type {Record<string, unknown>} */ (RATE_PHASES)[phase.name]) add(`dropped_iterations{scenario:${phase.name}}`, 'count>=0');
  }

  return {
    scenarios,
    thresholds,
    setupTimeout: '30m',
    teardownTimeout: '5m',
    summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'count'],
    // Scenario tags carry the phase; the full URL would make one series per id.
    systemTags: ['status', 'method', 'name', 'group', 'check', 'error', 'error_code', 'scenario', 'expected_response'],
  };
}
