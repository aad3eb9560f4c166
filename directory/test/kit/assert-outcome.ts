// Assertions on typed outcomes, shared by every directory test.
import assert from 'node:assert/strict';
import { DirectoryError, type Outcome, type OutcomeCause } from '../../outcome.ts';

function check(error: unknown, outcome: Outcome, reason?: OutcomeCause | null): true {
  assert.ok(DirectoryError.is(error), `expected a DirectoryError, got ${String(error)}`);
  assert.equal(error.outcome, outcome, `outcome of ${error.message}`);
  if (reason !== undefined) assert.equal(error.reason, reason, `cause of ${error.message}`);
  return true;
}

export function throwsOutcome(fn: () => unknown, outcome: Outcome, reason?: OutcomeCause | null): void {
  assert.throws(fn, (e) => check(e, outcome, reason));
}

export async function rejectsOutcome(
  promise: Promise<unknown> | (() => Promise<unknown>),
  outcome: Outcome,
  reason?: OutcomeCause | null,
): Promise<DirectoryError> {
  let caught: unknown;
  await assert.rejects(promise, (e) => {
    caught = e;
    return check(e, outcome, reason);
  });
  return caught as DirectoryError;
}
