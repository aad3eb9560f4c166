// The one exception that means "the implementation broke the contract".
// test262 has Test262Error so that an accidental TypeError can never pass for
// an expected failure; here it works the other way round too: only a
// ConformanceFailure makes a case `fail`. Anything else a case throws — a
// network error, a timeout, a bug in the case — makes it `error`, which is a
// fault of the harness or the environment and never a verdict on the vendor.
import type { Exchange } from './exchange.ts';
import { FleetproofError } from '../../client/errors.ts';

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

export class ConformanceFailure extends FleetproofError {
  readonly [BRAND] = true;
  readonly exchange: Exchange | undefined;
  readonly clause: string | undefined;

  constructor(message: string, options: FailureOptions = {}) {
    super('FP_ERR_CLAUSE_VIOLATED', message);
    this.exchange = options.exchange;
    this.clause = options.clause;
  }

  /** Brand check rather than instanceof, so a second copy of this module still counts. */
  static override is(value: unknown): value is ConformanceFailure {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}

/**
 * The harness could not do its job (an unprovokable limit, a target too busy
 * to observe a quiet window). Reported as `error` with this message, so the
 * report says why rather than showing a stack trace.
 */
export class HarnessError extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_HARNESS', message, options);
  }
}

/**
 * A case that cannot be provoked in this run for a reason the run states: the
 * case ends `skip` with that reason, which every report shows, and the clauses
 * it covers count as unexercised.
 */
export class CaseNotProvocable extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_NOT_PROVOCABLE', message, options);
  }
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
export class NotProvocable extends CaseNotProvocable {
  override readonly name = 'NotProvocable';
  constructor(detail: string) {
    super(`${NOT_PROVOCABLE}: ${detail}`);
  }
}

/** The reason every report shows for a case that must sign a token with claims only the trusted key can give. */
export const NEEDS_TRUSTED_KEY = "needs the registry's trusted signing key (--key), which --token-cmd and --header cannot stand in for";

/**
 * The run authenticates with the vendor's own credentials and holds no key
 * the registry trusts, so a token with special claims (expired, not yet
 * valid, another audience) cannot be signed. Reported as `skip` with the
 * reason NEEDS_TRUSTED_KEY and the token it would have needed.
 */
export class NeedsTrustedKey extends CaseNotProvocable {
  override readonly name = 'NeedsTrustedKey';
  constructor(detail: string) {
    super(`${NEEDS_TRUSTED_KEY}: ${detail}`);
  }
}

/** Whether a skip's message is one of the stated reasons above (not a feature the target does not declare). */
export function isStatedNotProvocable(message: string | null): boolean {
  return message !== null && (message.startsWith(`${NOT_PROVOCABLE}:`) || message.startsWith(`${NEEDS_TRUSTED_KEY}:`));
}
