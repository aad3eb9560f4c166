// Typed outcomes of the instance directory. A provider reports failures only
// through these: a fixed set of outcomes, each with an allowlist of causes, so
// no provider, transport or credential text can reach a consumer. The only
// thing an error may wrap is the caller's own abort reason (for `canceled`).

export const OUTCOMES = ['missing', 'invalid', 'unauthorized', 'unavailable', 'stale', 'watch_interrupted', 'canceled', 'closed'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const CAUSES_BY_OUTCOME = {
  missing: [],
  invalid: ['invalid_input', 'unknown_outcome', 'unknown_cause', 'terminal_outcome_required'],
  unauthorized: ['http_unauthorized', 'http_forbidden'],
  unavailable: ['provider_unavailable', 'rate_limited'],
  stale: ['resource_version_expired'],
  watch_interrupted: ['delivery_overflow', 'watch_event_too_large', 'watch_event_invalid', 'watch_status_error', 'stream_eof'],
  canceled: [],
  closed: [],
} as const satisfies Record<Outcome, readonly string[]>;

export type OutcomeCause = (typeof CAUSES_BY_OUTCOME)[Outcome][number];

const BRAND = Symbol.for('fleetproof.DirectoryError');

export class DirectoryError extends Error {
  readonly outcome: Outcome;
  /** The allowlisted cause, or null when the outcome carries none. */
  readonly reason: OutcomeCause | null;
  readonly [BRAND] = true;

  /** Use `directoryError`: it sanitizes what this constructor trusts. */
  private constructor(outcome: Outcome, reason: OutcomeCause | null, abortReason?: unknown) {
    super(`instance directory: ${outcome}${reason ? `: ${reason}` : ''}`, abortReason === undefined ? undefined : { cause: abortReason });
    this.name = 'DirectoryError';
    this.outcome = outcome;
    this.reason = reason;
  }

  static create(outcome: Outcome, reason: OutcomeCause | null, abortReason?: unknown): DirectoryError {
    return new DirectoryError(outcome, reason, abortReason);
  }

  static is(value: unknown): value is DirectoryError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}

export function isKnownOutcome(value: unknown): value is Outcome {
  return typeof value === 'string' && (OUTCOMES as readonly string[]).includes(value);
}

export function isAllowedCause(outcome: Outcome, cause: unknown): cause is OutcomeCause {
  return typeof cause === 'string' && (CAUSES_BY_OUTCOME[outcome] as readonly string[]).includes(cause);
}

/**
 * Builds an outcome error. An unknown outcome becomes invalid/unknown_outcome
 * and a cause the outcome does not allow becomes invalid/unknown_cause, so a
 * made-up cause can never smuggle text out.
 */
export function directoryError(outcome: string, cause?: string | null): DirectoryError {
  if (!isKnownOutcome(outcome)) return DirectoryError.create('invalid', 'unknown_outcome');
  if (cause === undefined || cause === null || cause === '') return DirectoryError.create(outcome, null);
  if (!isAllowedCause(outcome, cause)) return DirectoryError.create('invalid', 'unknown_cause');
  return DirectoryError.create(outcome, cause);
}

/** `canceled`, wrapping only the caller's abort reason. */
export function canceledBy(signal: AbortSignal): DirectoryError {
  return DirectoryError.create('canceled', null, signal.reason);
}

export const invalidInput = (): DirectoryError => DirectoryError.create('invalid', 'invalid_input');
export const closedError = (): DirectoryError => DirectoryError.create('closed', null);

/**
 * Filters an error on its way to becoming a watch terminal: only the outcome
 * and its safe cause survive; anything untyped is invalid/terminal_outcome_required.
 */
export function terminalFrom(error: unknown): DirectoryError {
  const typed = findDirectoryError(error);
  if (!typed) return DirectoryError.create('invalid', 'terminal_outcome_required');
  const clean = directoryError(typed.outcome, typed.reason);
  return clean.outcome === 'canceled' && typed.cause !== undefined ? DirectoryError.create('canceled', null, typed.cause) : clean;
}

/**
 * The outcome error itself or the first one in its `cause` chain: a caller may
 * wrap an outcome in its own error and still be classified by the outcome.
 */
export function findDirectoryError(error: unknown): DirectoryError | null {
  let current = error;
  for (let depth = 0; depth < 16 && typeof current === 'object' && current !== null; depth++) {
    if (DirectoryError.is(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

export function outcomeOf(error: unknown): Outcome | null {
  return findDirectoryError(error)?.outcome ?? null;
}

export function isOutcome(error: unknown, outcome: Outcome): boolean {
  return isKnownOutcome(outcome) && outcomeOf(error) === outcome;
}
