// How a property run ends early. A PropertyViolation is a counterexample: it
// names the property it breaks, so a report reads "pinned routes: ..." rather
// than an assertion diff. An IndeterminateOutcome is not a failure: a request
// timed out or storage was unavailable, so whether it took effect is unknown
// (a Jepsen :info) and the run cannot be judged. Both carry a brand so they
// are recognised across module copies.
import { pre } from 'fast-check';
import { FleetproofError } from '../../client/errors.ts';

export const PROPERTIES = {
  'pinned-routes': 'Pinned routes',
  'idempotent-settlement': 'Idempotent settlement',
  'stale-cursor': 'Stale-cursor rejection',
  'no-overbooking': 'No overbooking under concurrency',
  'tenant-isolation': 'Tenant isolation',
  'circuit-behaviour': 'Circuit behaviour',
  'model-agreement': 'Agreement with the sequential model',
} as const;

export type PropertyName = keyof typeof PROPERTIES;

const VIOLATION = Symbol.for('fleetproof.PropertyViolation');
const INDETERMINATE = Symbol.for('fleetproof.IndeterminateOutcome');
const NOT_FORWARDED = Symbol.for('fleetproof.NotForwarded');

export class PropertyViolation extends FleetproofError {
  readonly [VIOLATION] = true;
  constructor(
    readonly property: PropertyName,
    readonly detail: string,
  ) {
    super('FP_ERR_PROPERTY_VIOLATED', `${PROPERTIES[property]} violated: ${detail}`);
  }

  static override is(value: unknown): value is PropertyViolation {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[VIOLATION] === true;
  }
}

/** Throws a violation of `property` unless `holds`. */
export function expectProperty(property: PropertyName, holds: boolean, detail: () => string): asserts holds {
  if (!holds) throw new PropertyViolation(property, detail());
}

export function diverged(detail: string): never {
  throw new PropertyViolation('model-agreement', detail);
}

export class IndeterminateOutcome extends FleetproofError {
  readonly [INDETERMINATE] = true;
  /** A read that stayed unanswered: it changed nothing, it only could not be made. */
  readonly read: boolean;
  /**
   * How long the registry may still be acting on the request after the client gave up on it: a request that timed
   * out may be running yet (queued for storage, say), where a refused or answered one is done. 0 when it is done.
   */
  readonly mayStillActMs: number;
  constructor(message: string, options?: { cause?: unknown; read?: boolean; mayStillActMs?: number }) {
    super('FP_ERR_INDETERMINATE', message, options);
    this.read = options?.read ?? false;
    this.mayStillActMs = options?.mayStillActMs ?? 0;
  }

  static override is(value: unknown): value is IndeterminateOutcome {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[INDETERMINATE] === true;
  }
}

/**
 * A request that definitely did not take effect without any answer from the
 * registry: the fault proxy reset its connection before forwarding it, and
 * says so in its ledger (a Jepsen :fail). The registry never saw it.
 */
export class NotForwarded extends FleetproofError {
  readonly [NOT_FORWARDED] = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super('FP_ERR_NOT_FORWARDED', message, options);
  }

  static override is(value: unknown): value is NotForwarded {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[NOT_FORWARDED] === true;
  }
}

/**
 * Ends a run that cannot be judged as skipped rather than failed: fast-check
 * counts it among the skipped runs, and a run with too many of them reports
 * that the property could not be checked.
 */
export function skipIndeterminateRun(err: IndeterminateOutcome): never {
  indeterminateNotes.push(err.message);
  pre(false);
  throw err;
}

/** Why runs were skipped since the last call, for the report; fast-check records only that they were. */
const indeterminateNotes: string[] = [];

export function takeIndeterminateNotes(): string[] {
  return indeterminateNotes.splice(0);
}
