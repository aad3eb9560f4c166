// A property body that fails for a reason other than a violation (the target
// went away, the harness itself broke) must not be shrunk as if it were a
// counterexample. The first such error is remembered and every later run of
// the same check fails at once with it, so fast-check's shrinking ends
// quickly and the runner reports an error, not a counterexample.
import { PreconditionFailure } from 'fast-check';
import { PropertyViolation } from './violations.ts';

export function stopOnHarnessError<A extends unknown[]>(body: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  let harnessError: unknown;
  return async (...args) => {
    if (harnessError !== undefined) throw harnessError;
    try {
      await body(...args);
    } catch (err) {
      if (!PropertyViolation.is(err) && !PreconditionFailure.isFailure(err)) harnessError = err;
      throw err;
    }
  };
}
