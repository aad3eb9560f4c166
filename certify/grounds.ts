// What a certification's verdict rests on, stated in its first lines: the
// load profile it ran (only a qualification profile qualifies scale) and
// every MUST clause that no check exercised. INTERPRETING.md says why a
// verdict can still be QUALIFIED with such clauses, and how it is worded.
import type { ClauseCoverage } from '../reports/schemas/certification-result.ts';

/** Profiles whose dataset, phases and thresholds make a scale qualification; smoke only shows the flows work. */
export const QUALIFICATION_PROFILES: readonly string[] = ['aip-fleet-slo-v1', 'sustained'];

export function scaleGround(profile: string): string {
  return QUALIFICATION_PROFILES.includes(profile) ? `scale: ${profile}` : `scale: ${profile} — not a scale qualification`;
}

/** Required clauses that no case, property or audit ran on (unknown) or that every check skipped. */
export function unexercisedMustClauses(clauses: readonly ClauseCoverage[]): string[] {
  return clauses.filter((c) => c.severity === 'required' && (c.status === 'unknown' || c.status === 'skip')).map((c) => c.id);
}

export function groundsOf(profile: string, clauses: readonly ClauseCoverage[]): string[] {
  const unexercised = unexercisedMustClauses(clauses);
  return [scaleGround(profile), unexercised.length === 0 ? 'every MUST clause was exercised' : `MUST clauses no check exercised: ${unexercised.map((id) => `[${id}]`).join(', ')}`];
}

