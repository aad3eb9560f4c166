// handleSummary's document, fleetproof-load-summary/v1: the contract's
// thresholds with the engine's verdict and measured value, each phase's
// checks and latencies, the share of a split test this instance ran and
// when, and the engine's own summary data unchanged.
import exec from 'k6/execution';

/** @param {string} expression e.g. 'p(99)<=3000' */
export function splitExpression(expression) {
  const m = /^\s*([a-z]+(?:\([0-9.]+\))?)\s*(<=|>=|===|==|!=|<|>)\s*(-?[0-9.]+)\s*$/.exec(expression);
  if (!m) return null;
  return { aggregation: /** @type {string} */ (m[1]), operator: /** @type {string} */ (m[2]), limit: Number(m[3]) };
}

/**
 * How far the value is inside (positive) or outside (negative) the limit.
 * @param {number} value
 * @param {string} operator
 * @param {number} limit
 */
export function marginOf(value, operator, limit) {
  if (operator === '<' || operator === '<=') return limit - value;
  if (operator === '>' || operator === '>=') return value - limit;
  return -Math.abs(value - limit);
}

/**
 * @param {any} data k6's handleSummary data
 * @param {string} metric
 * @param {string} expression
 */
function evaluated(data, metric, expression) {
  const m = data.metrics[metric];
  const parts = splitExpression(expression);
  const value = m && parts ? m.values[parts.aggregation] : undefined;
  const verdict = m && m.thresholds ? m.thresholds[expression] : undefined;
  const ok = verdict ? verdict.ok : false;
  return {
    value: typeof value === 'number' ? value : null,
    ok,
    margin: typeof value === 'number' && parts ? marginOf(value, parts.operator, parts.limit) : null,
  };
}

/**
 * @param {any} group
 * @param {any[]} out
 */
function collectChecks(group, out) {
  for (const c of group.checks || []) out.push({ name: c.name, passes: c.passes, fails: c.fails });
  for (const g of group.groups || []) collectChecks(g, out);
  return out;
}

/**
 * @param {import('./plan.js').RunPlan} plan
 * @param {any} data
 */
export function buildSummary(plan, data) {
  const profile = plan.profile;
  const thresholds = profile.thresholds.map((t) => ({ ...t, ...evaluated(data, t.metric, t.expression) }));
  const phases = profile.phases.map((p) => {
    const checks = evaluated(data, `checks{phase:${p.name}}`, profile.phase_checks);
    const latency = data.metrics[`http_req_duration{phase:${p.name}}`];
    const requests = data.metrics[`http_reqs{phase:${p.name}}`];
    const checkMetric = data.metrics[`checks{phase:${p.name}}`];
    const dropped = data.metrics[`dropped_iterations{scenario:${p.name}}`];
    const resendWaits = data.metrics[`fleetproof_resend_wait_ms{phase:${p.name}}`];
    return {
      name: p.name,
      checks_ok: checks.ok,
      checks: checkMetric ? { passes: checkMetric.values.passes, fails: checkMetric.values.fails } : { passes: 0, fails: 0 },
      latency_ms: latency ? latency.values : null,
      requests: requests ? requests.values.count : 0,
      dropped_iterations: dropped ? dropped.values.count : 0,
      // The flows' own waits before sending requests again, on the phase's time.
      resend_wait_ms: resendWaits ? resendWaits.values.count : 0,
    };
  });
  const passed = thresholds.every((t) => t.ok) && phases.every((p) => p.checks_ok);
  return {
    format: 'fleetproof-load-summary/v1',
    run_id: plan.run_id,
    target: plan.target,
    profile: {
      name: profile.name,
      format: profile.format,
      duration_s: profile.duration_s || null,
      max_dropped_iterations: profile.max_dropped_iterations || 0,
      budgets_judge_speed: profile.budgets_judge_speed !== false,
      phases: profile.phases,
    },
    dataset: profile.dataset,
    thresholds_passed: passed,
    thresholds,
    phases,
    checks: collectChecks(data.root_group || {}, []),
    test_run_duration_ms: data.state ? data.state.testRunDurationMs : null,
    // k6 run directly (k6-operator) says nowhere else which segment it ran, or when.
    execution_segment: exec.test.options.executionSegment || '0:1',
    execution_segment_sequence: exec.test.options.executionSegmentSequence || null,
    started_at: data.state ? new Date(Date.now() - data.state.testRunDurationMs).toISOString() : null,
    // When setup ended and the scenarios' schedule began: the parts of a distributed run begin it together.
    load_started_at: data.setup_data && data.setup_data.load_started_ms ? new Date(data.setup_data.load_started_ms).toISOString() : null,
    finished_at: new Date().toISOString(),
    engine_summary: data,
  };
}
