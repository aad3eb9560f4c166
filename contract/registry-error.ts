// The one error type of the reference. Its code is a catalogue code, so the
// HTTP layer maps it without a table of its own, and a brand makes it
// recognisable across module copies (checked by code, not by prototype).
import { CAPACITY_RETRY_AFTER_MS, ERROR_CATALOGUE, type ErrorBody, type ErrorCode, type ScopeKind } from './errors.ts';

const BRAND = Symbol.for('fleetproof.RegistryError');

export class RegistryError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly retryAfterMs: number | undefined;
  readonly [BRAND] = true;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RegistryError';
    this.code = code;
    this.details = options.details;
    this.retryAfterMs = options.retryAfterMs;
  }

  get status(): number {
    return ERROR_CATALOGUE[this.code].status;
  }

  toBody(): ErrorBody {
    const error: ErrorBody['error'] = { code: this.code, message: this.message };
    if (this.retryAfterMs !== undefined) error.retry_after_ms = this.retryAfterMs;
    if (this.details !== undefined) error.details = this.details;
    return { error };
  }

  static is(value: unknown): value is RegistryError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}

export const invalid = (message: string, details?: Record<string, unknown>) =>
  new RegistryError('INVALID_REQUEST', message, details ? { details } : {});
export const notFound = (what: string) => new RegistryError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string) => new RegistryError('CONFLICT', message);
export const admissionRejected = (message: string) => new RegistryError('ADMISSION_REJECTED', message);
export const fenceLost = (message: string) => new RegistryError('FENCE_LOST', message);
export const staleCursor = () => new RegistryError('STALE_CURSOR', 'the catalog revision changed; restart from the first page');
export const storageUnavailable = (message: string, cause?: unknown) => new RegistryError('STORAGE_UNAVAILABLE', message, { cause });

export const bindingUnavailable = (tenantId: string, capabilityId: string) =>
  new RegistryError('BINDING_UNAVAILABLE', `no enabled binding for tenant ${tenantId} and capability ${capabilityId}`, {
    details: { tenant_id: tenantId, capability_id: capabilityId },
  });

/** `retryAfterMs` when the refusal is for contention: replicas with room were all taken by concurrent requests. */
export const replicaUnavailable = (instanceId: string, retryAfterMs?: number) =>
  new RegistryError('REPLICA_UNAVAILABLE', `no replica of instance ${instanceId} can take the attempt`, {
    details: { instance_id: instanceId },
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });

export const capacityExceeded = (scope: ScopeKind) =>
  new RegistryError('CAPACITY_EXCEEDED', `admission scope ${scope} is at its limit`, {
    details: { scope },
    retryAfterMs: CAPACITY_RETRY_AFTER_MS,
  });
