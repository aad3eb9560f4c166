// What the model predicts for one call: a list of acceptable branches, each
// an observable outcome and the state the model moves to if the target took
// that branch. Most calls have one branch; the contract leaves some choices
// open (the tie-break between equally ranked replicas, which of several
// violated rules is reported, the exact instant on a clock the harness does
// not drive), and each open choice becomes one branch.
import type { ErrorCode } from '../../../contract/errors.ts';
import type { ModelState } from '../model-state.ts';

export type Outcome<T> = { ok: true; value: T } | { ok: false; code: ErrorCode; details?: Record<string, unknown> };

export interface Branch<T> {
  outcome: Outcome<T>;
  state: ModelState;
}

export function success<T>(state: ModelState, value: T): Branch<T> {
  return { outcome: { ok: true, value }, state };
}

export function failure<T>(state: ModelState, code: ErrorCode, details?: Record<string, unknown>): Branch<T> {
  return { outcome: details ? { ok: false, code, details } : { ok: false, code }, state };
}

/** One failure branch per distinct violated rule; the contract does not rank them. */
export function failures<T>(
  state: ModelState,
  violations: ReadonlyArray<{ code: ErrorCode; details?: Record<string, unknown> }>,
): Branch<T>[] {
  const seen = new Set<string>();
  const out: Branch<T>[] = [];
  for (const v of violations) {
    const key = JSON.stringify([v.code, v.details ?? null]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(failure(state, v.code, v.details));
  }
  return out;
}

export function describeOutcome(o: Outcome<unknown>): string {
  if (o.ok) return `ok ${JSON.stringify(o.value)}`;
  return o.details ? `${o.code} ${JSON.stringify(o.details)}` : o.code;
}
