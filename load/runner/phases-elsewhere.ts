// The phases a part of a distributed run holds no share of. k6 splits each
// scenario over the execution segments (VUs and iterations by the
// striping), so a phase of one VU and one iteration, as every qualification
// phase is, runs in exactly one part; the others start none of it. Their
// report says the phase is another part's, where it would otherwise read
// its absence as a phase cut at its budget. The share is the one the Node
// runner computes, which follows k6's rules (node-engine/segmented-scenarios.ts).
import { buildOptions } from '../lib/options.js';
import { ExecutionTuple, type SegmentChoice } from './execution-segments.ts';
import { scenariosOf } from './node-engine/scenarios.ts';
import { segmentScenarios } from './node-engine/segmented-scenarios.ts';
import type { RunPlan } from './run-plan.ts';

/** The plan's phases of which `segment` runs nothing, in the profile's order; none for the whole test (null). */
export function phasesElsewhere(plan: RunPlan, segment: SegmentChoice | null): string[] {
  const scenarios = scenariosOf(buildOptions(plan) as Record<string, unknown>);
  const phaseOf = (s: { name: string; tags: Record<string, string> }) => s.tags['phase'] ?? s.name;
  const here = new Set(segmentScenarios(scenarios, ExecutionTuple.of(segment)).map((s) => phaseOf(s.config)));
  const planned = new Set(scenarios.map(phaseOf));
  return plan.profile.phases.map((p) => p.name).filter((name) => planned.has(name) && !here.has(name));
}
