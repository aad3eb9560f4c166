// The one place where an error becomes a response ([error-body]). A
// RegistryError answers with its catalogue status; anything else is a defect
// and answers INTERNAL (500) after being logged with its request id.
import { ERROR_CATALOGUE, type ErrorBody } from '../../contract/errors.ts';
import { RegistryError } from '../../contract/registry-error.ts';

export interface ErrorReply {
  status: number;
  body: ErrorBody & { error: { request_id: string } };
  headers: Record<string, string>;
}

export type ErrorLogger = (message: string, err: unknown) => void;

/**
 * `capacityRetryAfterMs` is the guidance this registry gives with
 * CAPACITY_EXCEEDED ([error-capacity-guidance]: any positive integer).
 */
export function errorReply(err: unknown, requestId: string, log: ErrorLogger, capacityRetryAfterMs?: number): ErrorReply {
  const known = RegistryError.is(err) ? err : null;
  if (!known) log(`request ${requestId} failed with an unexpected error`, err);
  const registryError = known ?? new RegistryError('INTERNAL', 'the registry failed unexpectedly');
  const body = registryError.toBody() as ErrorReply['body'];
  body.error.request_id = requestId;
  if (registryError.code === 'CAPACITY_EXCEEDED' && capacityRetryAfterMs !== undefined) body.error.retry_after_ms = capacityRetryAfterMs;
  const headers: Record<string, string> = {};
  if (registryError.code === 'CAPACITY_EXCEEDED' || registryError.retryAfterMs !== undefined) {
    // [error-capacity-guidance], [failure-overload]: whole seconds, rounded up, never 0.
    const ms = body.error.retry_after_ms ?? 1000;
    headers['retry-after'] = String(Math.max(1, Math.ceil(ms / 1000)));
  }
  return { status: ERROR_CATALOGUE[registryError.code].status, body, headers };
}
