// Statuses and how they roll up (INTERPRETING.md). Cases end pass, fail,
// skip or error; a clause or category takes the worst status of its cases in
// the order unknown < skip < pass < fail < error, as the OCI suite's results
// only ever move up. `error` is a fault of the harness or the environment,
// kept apart from `fail`, and outranks it: a verdict built on a case that
// could not run is no verdict.
import type { Severity } from '../../contract/clauses.ts';

export const CASE_STATUSES = ['pass', 'fail', 'skip', 'error'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

export const ROLLUP_ORDER = ['unknown', 'skip', 'pass', 'fail', 'error'] as const;
export type RollupStatus = (typeof ROLLUP_ORDER)[number];

export function worst(a: RollupStatus, b: RollupStatus): RollupStatus {
  return ROLLUP_ORDER.indexOf(a) >= ROLLUP_ORDER.indexOf(b) ? a : b;
}

export function rollUp(statuses: Iterable<RollupStatus>): RollupStatus {
  let out: RollupStatus = 'unknown';
  for (const s of statuses) out = worst(out, s);
  return out;
}

export type Verdict = 'qualified' | 'non-conformant' | 'could-not-judge';

/** Exit codes of `fleetproof conform`. */

export interface JudgedCase {
  status: CaseStatus;
  severity: Severity | null;
  /** Severity of the clause a failure broke, when it is not the case's own. */
  failure_severity?: Severity | null;
}

/** Does this case's outcome block qualification? */
export function blocksQualification(c: JudgedCase): boolean {
  return isBlockingError(c) || isBlockingFailure(c);
}

/** A failure of a required case, or against a required clause: evidence of non-conformance. */
function isBlockingFailure(c: JudgedCase): boolean {
  return c.status === 'fail' && (c.severity === 'required' || c.failure_severity === 'required' || c.severity === null);
}

/** A required case that reached no verdict: no evidence either way. */
function isBlockingError(c: JudgedCase): boolean {
  return c.status === 'error' && (c.severity === 'required' || c.severity === null);
}

/**
 * A blocking failure is non-conformance whatever else happened; blocking
 * errors alone leave the run unjudged, and so does a run in which no case
 * passed or failed (every one it selected skipped): it saw nothing to qualify.
 */
export function verdictOf(cases: readonly JudgedCase[]): Verdict {
  if (cases.some(isBlockingFailure)) return 'non-conformant';
  if (cases.some(isBlockingError)) return 'could-not-judge';
  return cases.some((c) => c.status === 'pass' || c.status === 'fail') ? 'qualified' : 'could-not-judge';
}
