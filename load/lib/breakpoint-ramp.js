// The breakpoint ramp's steps and its stopping rule, shared by the script's
// options and the runner's curve so both judge a step by the same
// thresholds. Each step is its own scenario, breakpoint_<rate>; a step holds
// when every profile threshold that covers the ramp (those naming its phase,
// and those naming no phase) holds over that step's points alone.

export const BREAKPOINT_PHASE = 'breakpoint_routes';
const STEP_PREFIX = 'breakpoint_';

/** @param {number} rate */
export const stepScenario = (rate) => `${STEP_PREFIX}${rate}`;

/**
 * The rate of a step's scenario, or null for any other scenario.
 * @param {string} scenario
 */
export function stepRate(scenario) {
  const m = /^breakpoint_([0-9]+)$/.exec(scenario);
  return m ? Number(m[1]) : null;
}

/**
 * The rates of the ramp, lowest first: start_rate, then rate_step more each step, up to max_rate.
 * @param {Record<string, number>} p the phase's parameters
 */
export function breakpointRates(p) {
  const rates = [];
  const step = Math.max(1, p['rate_step'] || 1);
  for (let r = Math.max(1, p['start_rate'] || 1); r <= (p['max_rate'] || 1); r += step) rates.push(r);
  return rates;
}

/**
 * Adds a scenario filter to a selector: `m{a:b}` → `m{a:b,scenario:s}`.
 * @param {string} metric
 * @param {string} scenario
 */
export function withScenario(metric, scenario) {
  return metric.includes('{') ? metric.replace('}', `,scenario:${scenario}}`) : `${metric}{scenario:${scenario}}`;
}

/** @param {string} metric */
export const coversRamp = (metric) => !/[{,]phase:/.test(metric) || metric.includes(`phase:${BREAKPOINT_PHASE}`);

/**
 * The thresholds that judge one step: each covering threshold of the
 * profile, over the step's scenario alone.
 * @template {{ metric: string, expression: string }} T
 * @param {T[]} thresholds the profile's
 * @param {number} rate
 * @returns {T[]}
 */
export function stepThresholds(thresholds, rate) {
  return thresholds.filter((t) => coversRamp(t.metric)).map((t) => ({ ...t, metric: withScenario(t.metric, stepScenario(rate)) }));
}
