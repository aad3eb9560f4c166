// The harness's own errors, one family as undici has one: each carries a
// stable code (FP_ERR_…) that a script or a reader can match on, and the exit
// code a command ends with when the error reaches it. The registry's errors
// are the contract's catalogue (contract/errors.ts); these are the harness's.
// EXIT_CODES is the project's one exit-code table: docs/exit-codes.md is
// generated from this file (`npm run docs:tables`) and a test keeps the two
// equal, so every other document links there instead of repeating it.

/** Every exit code a fleetproof command ends with, and what it means. */
export const EXIT_CODES = {
  0: 'Qualified: every case, property, check, threshold and audited invariant held (verify: the bundle verified; serve and directory watch: stopped when asked).',
  1: 'Non-conformant: the registry broke a rule — a case failed, a property found a counterexample, a load check or audited invariant failed (verify: the bundle does not verify; directory watch: the watched Service was deleted, so a new binding is needed).',
  2: 'Could not run or could not judge: the run says why, with one of the codes below. Nothing was found wrong with the registry.',
  99: 'A threshold crossed, not a defect, so a pipeline can tell a performance miss from a broken rule. load, as k6: the run was correct but crossed a threshold. report --compare: run B regressed on run A (a latency rise beyond the stated noise band, or a verdict, case or property gone worse).',
  130: 'Interrupted by SIGINT (143: by SIGTERM) while judging: the run stopped what it had started before it exited.',
} as const;

/** The codes by name, for the code that ends a run with one. */
export const EXIT = { qualified: 0, nonConformant: 1, couldNotRun: 2, thresholdsCrossed: 99 } as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Code → the exit code it ends a command with, and what it means. Codes are stable: never renamed or reused. */
export const HARNESS_ERRORS = {
  FP_ERR_USAGE: { exit: 2, meaning: 'A flag, argument or command the command does not take, or a value it cannot use.' },
  FP_ERR_CONFIG: { exit: 2, meaning: 'A setting (flag, FLEETPROOF_* variable or config file member) with a value the run cannot use.' },
  FP_ERR_CREDENTIALS: {
    exit: 2,
    meaning: 'The credentials cannot be used: a signing key that cannot be read, a token command that fails, a header that is malformed.',
  },
  FP_ERR_PREFLIGHT: {
    exit: 2,
    meaning:
      "The target failed a check made before any stage: it did not answer, /version is not this contract's, the run's tokens are refused, or its clock is too far off.",
  },
  FP_ERR_NO_ANSWER: { exit: 2, meaning: 'A request got no answer: refused, reset, closed or past its deadline.' },
  FP_ERR_ANSWER_TOO_LARGE: {
    exit: 2,
    meaning:
      "An answer larger than the run reads (a bound derived from the limits the target declares, stated in the run's settings): no legal answer is that large.",
  },
  FP_ERR_NOT_JSON: { exit: 2, meaning: 'An answer that must be JSON was not.' },
  FP_ERR_VERSION: { exit: 2, meaning: 'GET /version did not give a VersionInfo the run can size itself by.' },
  FP_ERR_COULD_NOT_RUN: {
    exit: 2,
    meaning: 'A run could not start or could not finish as planned; the message says what was outstanding.',
  },
  FP_ERR_HARNESS: {
    exit: 2,
    meaning: 'A step of a case failed for a reason of the harness or the environment, not of the registry: the case ends error.',
  },
  FP_ERR_NOT_PROVOCABLE: {
    exit: 2,
    meaning: 'A case cannot provoke its rule under the declared limits; the case ends skip with the arithmetic that proves it.',
  },
  FP_ERR_INDETERMINATE: { exit: 2, meaning: 'An outcome the run cannot know: a timeout, a lost answer or STORAGE_UNAVAILABLE.' },
  FP_ERR_NOT_FORWARDED: { exit: 2, meaning: 'The fault proxy did not forward a request, so it had no effect on the registry.' },
  FP_ERR_CLAUSE_VIOLATED: { exit: 1, meaning: 'A conformance case found the registry breaking the clause it tests.' },
  FP_ERR_PROPERTY_VIOLATED: { exit: 1, meaning: 'A property suite found a counterexample.' },
  FP_ERR_SCALE_CONTRACT: { exit: 2, meaning: 'The scale contract, a profile or a --set override cannot be used.' },
  FP_ERR_PLAN: { exit: 2, meaning: 'A run plan that cannot be read, has expired, or does not fit the run.' },
  FP_ERR_SEGMENT: { exit: 2, meaning: 'An execution segment (--segment) that is malformed or does not fit the plan.' },
  FP_ERR_SCRIPT: {
    exit: 2,
    meaning: 'A load script the engine cannot run: its options, its staging, or a k6 API the Node engine does not run.',
  },
  FP_ERR_THRESHOLD: { exit: 2, meaning: 'A threshold expression or metric selector that cannot be evaluated.' },
  FP_ERR_METRIC_OUTPUT: { exit: 2, meaning: "A part's metric output that cannot be read." },
  FP_ERR_RUN_PART: { exit: 2, meaning: 'A part of a distributed run that cannot be merged: missing, foreign or incomplete.' },
  FP_ERR_MERGE: {
    exit: 2,
    meaning: 'The parts of a distributed run cannot be merged into one verdict: they overlap, miss a segment or belong to other runs.',
  },
  FP_ERR_BUNDLE_INPUT: { exit: 2, meaning: 'A bundle or public key that cannot be read.' },
  FP_ERR_BINDING_FILE: { exit: 2, meaning: "The directory bridge's binding file cannot be read or is not valid." },
} as const satisfies Record<string, { exit: 1 | 2; meaning: string }>;

export type HarnessErrorCode = keyof typeof HARNESS_ERRORS;

const BRAND = Symbol.for('fleetproof.HarnessError');

/**
 * The base of every error the harness raises. Recognised by a brand, not by
 * prototype, so a second copy of this module (a staged load script, the
 * sources beside the compiled tree) still counts.
 */
export class FleetproofError extends Error {
  readonly [BRAND] = true;
  readonly code: HarnessErrorCode;

  constructor(code: HarnessErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }

  get exitCode(): 1 | 2 {
    return HARNESS_ERRORS[this.code].exit;
  }

  static is(value: unknown): value is FleetproofError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}

/** `{ exitCode, message, code }` of a harness error, for the APIs that answer with an outcome; anything else is rethrown. */
export function outcomeOf(err: unknown): { exitCode: 1 | 2; message: string; code: HarnessErrorCode } {
  if (!FleetproofError.is(err)) throw err;
  return { exitCode: err.exitCode, message: err.message, code: err.code };
}
