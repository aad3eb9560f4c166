// Whether the parts of a distributed run ran side by side, as their shared
// plan schedules them. Every part begins the scenarios' schedule when its
// setup ends (the seeding part once the dataset is written, the others once
// they read it), so parts started together begin it within a few seconds of
// each other. Parts run one after the other, or a part started late (a
// runner pod that started or restarted late), put only a share of the
// planned rate on the target at any moment: what they found of correctness
// (checks, the audit) still holds, but a threshold measured while the
// arrival-rate phases ran describes another load than the plan's, so it is
// not judged.
import { BREAKPOINT_PHASE, breakpointRates, stepRate } from '../lib/breakpoint-ramp.js';
import { RATE_PHASES } from '../lib/options.js';
import type { ProfileIdentity, RunIdentity } from '../histograms/run-histograms.ts';
import { parseSelector } from '../runner/node-engine/thresholds.ts';

/** Below this, parts apart are the waiting part's poll for the seed (every second) and its start-up. */
const START_SLACK_MS = 3000;
/** The share of the arrival-rate phases the parts may spend apart and still have run side by side. */
const APART_SHARE = 0.1;

export interface PartOverlap {
  /** Every part began its schedule within the tolerance of the others; null when a part did not record when. */
  as_scheduled: boolean | null;
  /** From the first part's start of its schedule to the last one's. */
  spread_ms: number | null;
  tolerance_ms: number;
  /** Each part's start of its schedule, in the order given; null where the part did not record it. */
  load_started_at: (string | null)[];
}

const isRatePhase = (name: string | undefined) =>
  name !== undefined && (Object.hasOwn(RATE_PHASES, name) || name === BREAKPOINT_PHASE || stepRate(name) !== null);

/** How long the profile's arrival-rate phases run: the span whose load the parts put on the target together. */
function rateWindowMs(profile: ProfileIdentity): number {
  let ms = 0;
  for (const p of profile.phases) {
    if (Object.hasOwn(RATE_PHASES, p.name)) ms = Math.max(ms, (profile.duration_s ?? 60) * 1000);
    if (p.name === BREAKPOINT_PHASE) ms = Math.max(ms, breakpointRates(p.params ?? {}).length * (p.params?.['step_s'] ?? 10) * 1000);
  }
  return ms;
}

/** Whether the profile runs any phase at an arrival rate, which the parts share out. */
export function hasRatePhases(profile: ProfileIdentity): boolean {
  return profile.phases.some((p) => isRatePhase(p.name));
}

/** A threshold measured while the arrival-rate phases run: its value depends on the parts' combined rate. */
export function dependsOnCombinedRate(metric: string): boolean {
  const { filter } = parseSelector(metric);
  return isRatePhase(filter['phase']) || isRatePhase(filter['scenario']);
}

export function partOverlap(runs: readonly RunIdentity[], profile: ProfileIdentity): PartOverlap {
  const tolerance = Math.max(START_SLACK_MS, Math.round(APART_SHARE * rateWindowMs(profile)));
  const starts = runs.map((r) => r.load_started_at ?? null);
  const known = starts.filter((s): s is string => s !== null).map((s) => Date.parse(s));
  const spread = known.length > 0 ? Math.max(...known) - Math.min(...known) : null;
  return {
    as_scheduled: known.length < runs.length || spread === null ? null : spread <= tolerance,
    spread_ms: spread,
    tolerance_ms: tolerance,
    load_started_at: starts,
  };
}

/** What the merge says of it, and why a threshold that depends on the combined rate is not judged (null: it is). */
export function overlapText(o: PartOverlap, parts: readonly string[]): { note: string | null; notJudged: string | null } {
  if (o.as_scheduled === true) return { note: null, notJudged: null };
  if (o.as_scheduled === null) {
    const silent = parts.filter((_, k) => o.load_started_at[k] === null);
    return {
      note: `${silent.join(', ')} do(es) not record when its load began: whether the parts ran side by side is not known`,
      notJudged: 'not judged: whether the parts ran side by side, at the combined rate the plan schedules, is not known',
    };
  }
  const apart = `the parts did not run side by side as the plan schedules them: their loads began ${(o.spread_ms! / 1000).toFixed(1)} s apart (at most ${(o.tolerance_ms / 1000).toFixed(1)} s is side by side)`;
  return {
    note: `${apart}; checks and the audit are judged as always, thresholds measured at the combined rate are not`,
    notJudged: `not judged: ${apart}, so the target never met the combined rate the plan schedules`,
  };
}
