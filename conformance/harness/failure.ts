// The one exception that means "the implementation broke the contract".
// test262 has Test262Error so that an accidental TypeError can never pass for
// an expected failure; here it works the other way round too: only a
// ConformanceFailure makes a case `fail`. Anything else a case throws — a
// network error, a timeout, a bug in the case — makes it `error`, which is a
// fault of the harness or the environment and never a verdict on the vendor.
import type { Exchange } from './exchange.ts';

const BRAND = Symbol.for('fleetproof.conformance-failure');

export interface FailureOptions {
  /** The exchange that shows the violation; the runner falls back to the case's last one. */
  exchange?: Exchange | undefined;
  /**
   * The clause the violation breaks when it is not the clause the case cites:
   * a malformed error body breaks [error-body] whatever the case is about.
   */
  clause?: string | undefined;
}

export class ConformanceFailure extends Error {
  readonly [BRAND] = true;
  readonly exchange: Exchange | undefined;
  readonly clause: string | undefined;

  constructor(message: string, options: FailureOptions = {}) {
    super(message);
    this.name = 'ConformanceFailure';
    this.exchange = options.exchange;
    this.clause = options.clause;
  }

  /** Brand check rather than instanceof, so a second copy of this module still counts. */
  static is(value: unknown): value is ConformanceFailure {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}

/**
 * The harness could not do its job (an unprovokable limit, a target too busy
 * to observe a quiet window). Reported as `error` with this message, so the
 * report says why rather than showing a stack trace.
 */
export class HarnessError extends Error {
  override readonly name = 'HarnessError';
}

/** The reason every report shows for a case the declared limits leave nothing to test. */
export const NOT_PROVOCABLE = 'not provocable under the declared limits';

/**
 * The limits the target declares make the case's clause impossible to
 * provoke (a limit that nothing legal can exceed, or a probe that would need
 * more than another limit allows). Reported as `skip` with the reason
 * NOT_PROVOCABLE and the detail: a correct registry is never blocked by the
 * limits it is allowed to choose.
 */
export class NotProvocable extends Error {
  override readonly name = 'NotProvocable';
  constructor(detail: string) {
    super(`${NOT_PROVOCABLE}: ${detail}`);
  }
}
