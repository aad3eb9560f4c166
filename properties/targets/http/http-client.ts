// One operation against a registry over the contract's transport, and what
// its outcome means for the suites. An error body becomes the RegistryError
// of its catalogue code, so commands compare codes the same way on every
// target. A request that timed out, or whose connection broke after it was
// sent, is indeterminate: the registry may or may not have acted on it (a
// Jepsen :info), which is not a failure of the registry. An answer outside
// the contract is a violation.
import { ERROR_CATALOGUE, isErrorCode } from '../../../contract/errors.ts';
import type { OperationId } from '../../../contract/operations.ts';
import {
  jsonBody,
  NotJson,
  TransportError,
  type HttpTransport,
  type OperationRequest,
  type Received,
} from '../../../client/http-transport.ts';
import { RegistryError } from '../../../contract/registry-error.ts';
import { diverged, IndeterminateOutcome } from '../../check/violations.ts';
import { FleetproofError } from '../../../client/errors.ts';

/** The target cannot be reached at all: the suites cannot run (exit 2), nothing was judged. */
export class TargetUnreachable extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_NO_ANSWER', message, options);
  }
}

/** `GET /v1/...` as sent, for messages. */
function requestLine(transport: HttpTransport, received: Pick<Received, 'exchange'>): string {
  const { method, url } = received.exchange.request;
  return `${method} ${url.slice(transport.baseUrl.length)}`;
}

function outcomeOfNoAnswer(transport: HttpTransport, err: TransportError, timeoutMs: number): Error {
  const what = requestLine(transport, err);
  switch (err.failure) {
    case 'timeout':
      // The registry may still be working on it (queued for storage, say): it is given as long again as the client waited.
      return new IndeterminateOutcome(`${what} timed out after ${timeoutMs} ms`, { cause: err, mayStillActMs: timeoutMs });
    case 'aborted':
      // The stage called its requests off (its budget is spent): nothing will read back what this one did, so nobody waits for it.
      return new IndeterminateOutcome(`${what}: called off`, { cause: err });
    case 'unreachable':
      return new TargetUnreachable(`${what}: cannot reach the target (${err.exchange.transport_error})`, { cause: err });
    case 'lost':
      // The registry may still be working on it (a process that reset the connection, say): as long as a timeout.
      return new IndeterminateOutcome(`${what}: connection lost before the answer (${err.exchange.transport_error})`, {
        cause: err,
        mayStillActMs: timeoutMs,
      });
    case 'failed':
      return err.cause instanceof Error ? err.cause : err;
  }
}

/** The body of a 2xx answer; any other answer is rejected with what it means. */
export async function callOperation<K extends OperationId>(
  transport: HttpTransport,
  timeoutMs: number,
  op: K,
  req: OperationRequest<K>,
): Promise<unknown> {
  let received: Received;
  try {
    received = await transport.operation(op, req);
  } catch (err) {
    throw TransportError.is(err) ? outcomeOfNoAnswer(transport, err, timeoutMs) : err;
  }
  let json: unknown;
  try {
    json = jsonBody(received);
  } catch (err) {
    if (err instanceof NotJson) diverged(`${requestLine(transport, received)} answered ${received.status} with a body that is not JSON`);
    throw err;
  }
  if (received.status >= 200 && received.status < 300) {
    if (resentAndFoundItself(received, json))
      throw new IndeterminateOutcome(
        `${requestLine(transport, received)} answered "unchanged" to a second attempt (${received.exchange.resent}): the first may have applied it`,
        { mayStillActMs: timeoutMs },
      );
    return json;
  }
  return Promise.reject(registryErrorOf(requestLine(transport, received), received.status, json));
}

/**
 * A PUT the transport sent again after its connection closed under the first
 * attempt ([records-identical-put] makes that safe) answers "unchanged" when
 * the first attempt applied it: which of the two outcomes was the
 * registry's is unknown, so the write is indeterminate and the state read
 * back decides. Like any lost request, the first attempt may still be
 * acting for as long as a timeout, unless the proxy saw its answer go by.
 */
function resentAndFoundItself(received: Received, json: unknown): boolean {
  if (!received.exchange.resent || received.exchange.request.method.toUpperCase() !== 'PUT') return false;
  return (json as { outcome?: unknown } | null)?.outcome === 'unchanged';
}

function registryErrorOf(what: string, status: number, json: unknown): RegistryError {
  const error = (json as { error?: { code?: unknown; message?: unknown; details?: unknown; retry_after_ms?: unknown } } | undefined)?.error;
  const code = error?.code;
  if (!isErrorCode(code)) diverged(`${what} answered ${status} without a catalogue error code`);
  if (ERROR_CATALOGUE[code].status !== status)
    diverged(`${what} answered ${status} with ${code}, whose status is ${ERROR_CATALOGUE[code].status}`);
  if (code === 'STORAGE_UNAVAILABLE') throw new IndeterminateOutcome(`${what}: the registry's storage was unavailable`);
  const details = typeof error?.details === 'object' && error.details !== null ? (error.details as Record<string, unknown>) : undefined;
  const retryAfterMs = typeof error?.retry_after_ms === 'number' ? error.retry_after_ms : undefined;
  return new RegistryError(code, typeof error?.message === 'string' ? error.message : code, {
    ...(details ? { details } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}
