// A scenario's share of a split test, as k6 computes it for an instance's
// execution segment: VU and iteration counts scaled by the striping, and the
// tuple that numbers the instance's iterations in the whole test
// (exec.scenario.iterationInTest). Arrival-rate scenarios stripe their
// arrivals over the segments that hold at least one of their maxVUs; a
// scenario with no share of the work does not run in this instance.
import { ExecutionTuple } from '../execution-segments.ts';
import { isArrivalRate, type ScenarioConfig } from './scenarios.ts';

export interface SegmentedScenario {
  config: ScenarioConfig;
  /** Numbers this instance's iterations in the whole test. */
  tuple: ExecutionTuple;
}

/** The scenarios with work in this segment, scaled to it. */
export function segmentScenarios(configs: ScenarioConfig[], tuple: ExecutionTuple): SegmentedScenario[] {
  const out: SegmentedScenario[] = [];
  for (const c of configs) {
    if (isArrivalRate(c)) {
      const striped = tuple.restripedFor(c.maxVUs);
      if (striped === null) continue;
      out.push({ config: { ...c, preAllocatedVUs: tuple.scale(c.preAllocatedVUs), maxVUs: tuple.scale(c.maxVUs) }, tuple: striped });
      continue;
    }
    const vus = tuple.scale(c.vus);
    if (vus === 0) continue;
    const iterations = c.executor === 'shared-iterations' ? tuple.scale(c.iterations) : c.iterations;
    if (iterations === 0) continue;
    out.push({ config: { ...c, vus, iterations }, tuple });
  }
  return out;
}
