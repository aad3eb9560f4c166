// One HTTP exchange with a registry, and what its outcome means for the
// suites. An error body becomes the RegistryError of its catalogue code, so
// commands compare codes the same way on every target. A request that timed
// out, or whose connection broke after it was sent, is indeterminate: the
// registry may or may not have acted on it (a Jepsen :info), which is not a
// failure of the registry. An answer outside the contract is a violation.
import { errors, request, type Dispatcher } from 'undici';
import { ERROR_CATALOGUE, isErrorCode } from '../../../contract/errors.ts';
import { RegistryError } from '../../../contract/registry-error.ts';
import { diverged, IndeterminateOutcome } from '../../check/violations.ts';

export interface HttpCall {
  method: 'GET' | 'PUT' | 'POST';
  path: string;
  token?: string;
  body?: unknown;
}

/** The target cannot be reached at all: the suites cannot run (exit 2), nothing was judged. */
export class TargetUnreachable extends Error {
  override name = 'TargetUnreachable';
}

const BROKEN_AFTER_SEND = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function classifyTransportError(err: unknown, call: HttpCall, timeoutMs: number): Error {
  const e = err as { name?: string; code?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code ?? '';
  const what = `${call.method} ${call.path}`;
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError) {
    return new IndeterminateOutcome(`${what} timed out after ${timeoutMs} ms`, { cause: err });
  }
  if (NEVER_SENT.has(code)) return new TargetUnreachable(`${what}: cannot reach the target (${code})`, { cause: err });
  if (BROKEN_AFTER_SEND.has(code)) return new IndeterminateOutcome(`${what}: connection lost before the answer (${code})`, { cause: err });
  return err instanceof Error ? err : new Error(String(err));
}

export async function exchange(base: string, dispatcher: Dispatcher, timeoutMs: number, call: HttpCall): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (call.token) headers['authorization'] = `Bearer ${call.token}`;
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  let status: number;
  let text: string;
  try {
    const res = await request(base + call.path, {
      method: call.method,
      headers,
      dispatcher,
      signal: AbortSignal.timeout(timeoutMs),
      ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
    });
    status = res.statusCode;
    text = await res.body.text();
  } catch (err) {
    throw classifyTransportError(err, call, timeoutMs);
  }
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    diverged(`${call.method} ${call.path} answered ${status} with a body that is not JSON`);
  }
  if (status >= 200 && status < 300) return json;
  return Promise.reject(registryErrorOf(call, status, json));
}

function registryErrorOf(call: HttpCall, status: number, json: unknown): RegistryError {
  const error = (json as { error?: { code?: unknown; message?: unknown; details?: unknown; retry_after_ms?: unknown } } | undefined)?.error;
  const code = error?.code;
  if (!isErrorCode(code)) diverged(`${call.method} ${call.path} answered ${status} without a catalogue error code`);
  if (ERROR_CATALOGUE[code].status !== status) diverged(`${call.method} ${call.path} answered ${status} with ${code}, whose status is ${ERROR_CATALOGUE[code].status}`);
  if (code === 'STORAGE_UNAVAILABLE') throw new IndeterminateOutcome(`${call.method} ${call.path}: the registry's storage was unavailable`);
  const details = typeof error?.details === 'object' && error.details !== null ? (error.details as Record<string, unknown>) : undefined;
  const retryAfterMs = typeof error?.retry_after_ms === 'number' ? error.retry_after_ms : undefined;
  return new RegistryError(code, typeof error?.message === 'string' ? error.message : code, {
    ...(details ? { details } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}
