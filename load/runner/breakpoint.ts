// The answer of the breakpoint profile: how far the registry goes. Each step
// of the ramp is its own scenario (breakpoint_<rate>, load/lib/options.js),
// so the run's histograms hold every figure per rate. A step held when every
// threshold of the profile that covers the ramp held over that step's points
// alone (load/lib/breakpoint-ramp.js), and the load machine started every
// arrival; the highest rate of the unbroken run of held steps from the first
// is the registry's breakpoint figure. The same thresholds abort the test
// while it runs, so the ramp ends at the first step that breaks. A step
// whose arrivals the load machine could not start measures the generator,
// not the registry: the search ends there without a verdict on that rate.
import { evaluateThreshold, selectSeries, trendStats } from './evaluate.ts';
import type { ProfileIdentity, RunHistograms } from '../histograms/run-histograms.ts';
import { BREAKPOINT_PHASE, breakpointRates, stepRate, stepThresholds } from '../lib/breakpoint-ramp.js';

export { BREAKPOINT_PHASE };

export interface BreakpointStep {
  rate: number;
  requests: number;
  /** Resolve latency at this rate. */
  p50_ms: number | null;
  p99_ms: number | null;
  /** Share of this step's requests that failed (k6's http_req_failed). */
  error_rate: number;
  dropped_iterations: number;
  held: boolean;
  /** What broke at this rate: threshold labels, or the generator falling behind. */
  broken: string[];
}

export interface BreakpointResult {
  steps: BreakpointStep[];
  /** The highest rate up to which every step held; null when the first did not. */
  highest_held_rate: number | null;
  /** Where and why the registry's answer stops, in a sentence. */
  limit: string;
  /** The ramp's last rate as asked (max_rate, on its steps). */
  max_rate: number;
  /** The ramp ended before its last rate: a step broke and the engine stopped the test. */
  stopped_early: boolean;
}

/** The curve and the highest rate that held; null when the run has no breakpoint ramp. */
export function breakpointCurve(h: RunHistograms, profile: Pick<ProfileIdentity, 'phases' | 'thresholds'>): BreakpointResult | null {
  const phase = profile.phases.find((p) => p.name === BREAKPOINT_PHASE);
  if (!phase) return null;
  const stepMs = (phase.params?.['step_s'] ?? 10) * 1000;
  const scenarios = new Set<string>();
  for (const m of h.metrics.values())
    for (const s of m.series.values()) if (stepRate(s.tags['scenario'] ?? '') !== null) scenarios.add(s.tags['scenario']!);
  const ordered = [...scenarios].map((s) => ({ scenario: s, rate: stepRate(s)! })).sort((a, b) => a.rate - b.rate);
  const steps: BreakpointStep[] = ordered.map(({ scenario, rate }) => {
    const latency = selectSeries(h, `http_req_duration{phase:${BREAKPOINT_PHASE},operation:resolve,scenario:${scenario}}`);
    const failed = selectSeries(h, `http_req_failed{scenario:${scenario}}`);
    const dropped = selectSeries(h, `dropped_iterations{scenario:${scenario}}`)?.sum.value() ?? 0;
    const broken = stepThresholds(profile.thresholds, rate)
      .filter((t) => !t.metric.startsWith('dropped_iterations{'))
      .filter((t) => !evaluateThreshold(h, t.metric, t.expression, stepMs).ok)
      .map((t) => `${t.label} (${t.expression})`);
    if (dropped > 0) broken.push(`the load machine dropped ${dropped} arrivals`);
    const stats = latency && latency.count > 0 ? trendStats(latency, ['med', 'p(99)']) : null;
    return {
      rate,
      requests: selectSeries(h, `http_reqs{scenario:${scenario}}`)?.sum.value() ?? 0,
      p50_ms: stats ? stats['med']! : null,
      p99_ms: stats ? stats['p(99)']! : null,
      error_rate: failed && failed.count > 0 ? failed.nonZero / failed.count : 0,
      dropped_iterations: dropped,
      held: broken.length === 0,
      broken,
    };
  });
  const firstBroken = steps.findIndex((s) => !s.held);
  const heldUpTo = firstBroken < 0 ? steps.length : firstBroken;
  const highest = heldUpTo > 0 ? steps[heldUpTo - 1]!.rate : null;
  const breaking = steps[firstBroken];
  const maxRate = breakpointRates(phase.params ?? {}).at(-1) ?? 0;
  const lastRan = steps.at(-1)?.rate ?? null;
  const stoppedEarly = lastRan !== null && lastRan < maxRate;
  const ended = stoppedEarly ? ` The ramp ended at ${lastRan}/s, before its last rate ${maxRate}/s.` : '';
  const limit = !breaking
    ? steps.length === 0
      ? 'No step of the ramp ran.'
      : stoppedEarly
        ? // The engine judges a step while it runs; over all of its points the step held after all.
          `Every step that ran held over all of its points, but a threshold crossed while the ${lastRan}/s step ran stopped the ramp.${ended}`
        : `Every step held, up to the ramp's last rate ${lastRan}/s: the registry goes further than this profile asked.`
    : breaking.dropped_iterations > 0 && breaking.broken.length === 1
      ? `At ${breaking.rate}/s the load machine could not start every arrival: the registry's limit lies beyond what this load machine can measure.${ended}`
      : `It broke at ${breaking.rate}/s: ${breaking.broken.join('; ')}.${ended}`;
  return { steps, highest_held_rate: highest, limit, max_rate: maxRate, stopped_early: stoppedEarly };
}
