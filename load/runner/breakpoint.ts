// The answer of the breakpoint profile: how far the registry goes. Each step
// of the ramp is its own scenario (breakpoint_<rate>, load/lib/options.js),
// so the run's histograms hold every figure per rate. A step held when every
// threshold of the profile that covers the ramp (those naming its phase, and
// those naming no phase) held over that step's points alone, and the load
// machine started every arrival; the highest rate of the unbroken run of held
// steps from the first is the registry's breakpoint figure. A step whose
// arrivals the load machine could not start measures the generator, not the
// registry: the search ends there without a verdict on that rate.
import { evaluateThreshold, selectSeries, trendStats } from './evaluate.ts';
import type { ProfileIdentity, RunHistograms } from '../histograms/run-histograms.ts';

export const BREAKPOINT_PHASE = 'breakpoint_routes';
const STEP_SCENARIO = /^breakpoint_([0-9]+)$/;

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
}

/** Adds a tag filter to a selector: `m{a:b}` + scenario → `m{a:b,scenario:s}`. */
function withScenario(metric: string, scenario: string): string {
  return metric.includes('{') ? metric.replace('}', `,scenario:${scenario}}`) : `${metric}{scenario:${scenario}}`;
}

const coversRamp = (metric: string) => !/[{,]phase:/.test(metric) || metric.includes(`phase:${BREAKPOINT_PHASE}`);

/** The curve and the highest rate that held; null when the run has no breakpoint ramp. */
export function breakpointCurve(h: RunHistograms, profile: Pick<ProfileIdentity, 'phases' | 'thresholds'>): BreakpointResult | null {
  const phase = profile.phases.find((p) => p.name === BREAKPOINT_PHASE);
  if (!phase) return null;
  const stepMs = (phase.params?.['step_s'] ?? 10) * 1000;
  const scenarios = new Set<string>();
  for (const m of h.metrics.values()) for (const s of m.series.values()) if (STEP_SCENARIO.test(s.tags['scenario'] ?? '')) scenarios.add(s.tags['scenario']!);
  const ordered = [...scenarios].map((s) => ({ scenario: s, rate: Number(STEP_SCENARIO.exec(s)![1]) })).sort((a, b) => a.rate - b.rate);
  const steps: BreakpointStep[] = ordered.map(({ scenario, rate }) => {
    const latency = selectSeries(h, `http_req_duration{phase:${BREAKPOINT_PHASE},operation:resolve,scenario:${scenario}}`);
    const failed = selectSeries(h, `http_req_failed{scenario:${scenario}}`);
    const dropped = selectSeries(h, `dropped_iterations{scenario:${scenario}}`)?.sum.value() ?? 0;
    const broken = profile.thresholds
      .filter((t) => coversRamp(t.metric) && t.metric !== 'dropped_iterations')
      .filter((t) => !evaluateThreshold(h, withScenario(t.metric, scenario), t.expression, stepMs).ok)
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
  const limit = !breaking
    ? steps.length === 0
      ? 'No step of the ramp ran.'
      : `Every step held, up to the ramp's last rate ${steps[steps.length - 1]!.rate}/s: the registry goes further than this profile asked.`
    : breaking.dropped_iterations > 0 && breaking.broken.length === 1
      ? `At ${breaking.rate}/s the load machine could not start every arrival: the registry's limit lies beyond what this load machine can measure.`
      : `It broke at ${breaking.rate}/s: ${breaking.broken.join('; ')}.`;
  return { steps, highest_held_rate: highest, limit };
}
