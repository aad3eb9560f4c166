// What a certification's verdict rests on, stated in its first lines: the
// load profile it ran (only a qualification profile qualifies scale) and
// every MUST clause that no check exercised, with the reason its checks
// skipped when they did. INTERPRETING.md says why a verdict can still be
// QUALIFIED with such clauses, and how it is worded.
import type { ClauseCoverage, StageSkip } from '../reports/schemas/certification-result.ts';

/** Profiles whose dataset, phases and thresholds make a scale qualification; smoke only shows the flows work. */
export const QUALIFICATION_PROFILES: readonly string[] = ['aip-fleet-slo-v1', 'sustained'];

export function scaleGround(profile: string): string {
  return QUALIFICATION_PROFILES.includes(profile) ? `scale: ${profile}` : `scale: ${profile} — not a scale qualification`;
}

/** Required clauses that no case, property or audit ran on (unknown) or that every check skipped. */
export function unexercisedMustClauses(clauses: readonly ClauseCoverage[]): string[] {
  return clauses.filter((c) => c.severity === 'required' && (c.status === 'unknown' || c.status === 'skip')).map((c) => c.id);
}

/** A skip's reason without its detail: "not provocable under the declared limits: max_page_items 1" says the first part for every case. */
const reasonOf = (skip: StageSkip) => skip.reason.split(': ')[0]!;

/**
 * `MUST clauses no check exercised: [a], [b]; [c], [d] (why their checks
 * skipped)`: the clauses nothing ran on first, then those whose checks all
 * skipped, grouped by the reason they give.
 */
function unexercisedGround(unexercised: readonly string[], skips: readonly StageSkip[]): string {
  const groups = new Map<string, string[]>();
  for (const id of unexercised) {
    const reasons = [...new Set(skips.filter((s) => s.clause === id).map(reasonOf))].sort().join('; ');
    groups.set(reasons, [...(groups.get(reasons) ?? []), `[${id}]`]);
  }
  const parts = [...groups.entries()]
    .sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)))
    .map(([reason, ids]) => `${ids.join(', ')}${reason ? ` (${reason})` : ''}`);
  return `MUST clauses no check exercised: ${parts.join('; ')}`;
}

export function groundsOf(profile: string, clauses: readonly ClauseCoverage[], skips: readonly StageSkip[] = []): string[] {
  const unexercised = unexercisedMustClauses(clauses);
  return [scaleGround(profile), unexercised.length === 0 ? 'every MUST clause was exercised' : unexercisedGround(unexercised, skips)];
}
