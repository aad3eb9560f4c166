// How a generated write moves its record's revision: forward (valid), or not
// forward at all (the monotonicity rules refuse a change that does not move
// it, [records-binding-revision], [records-instance-revision],
// [records-policy-revision], [records-replica-health]).
import fc from 'fast-check';

export const REVISION_STEPS = [1, 2, 0, -1] as const;
export type RevisionStep = (typeof REVISION_STEPS)[number];

/** Mostly valid steps, so sequences make progress; invalid ones often enough to matter. */
export const revisionStep = () => fc.constantFrom<RevisionStep>(1, 1, 1, 2, 0, -1);

export function describeStep(field: string, step: RevisionStep): string {
  return `${field} ${step >= 0 ? '+' : ''}${step}`;
}
