// Expectations: each one either returns or throws a ConformanceFailure that
// names what was expected, what came back, and the exchange that showed it.
// Cases assert the contract (codes, statuses, fields, relations), never a
// message or an implementation's incidental choice.
import { isDeepStrictEqual } from 'node:util';
import { ERROR_CATALOGUE, type ErrorBody, type ErrorCode } from '../../contract/errors.ts';
import type { Reply } from './client.ts';
import type { Exchange } from './exchange.ts';
import { ConformanceFailure, type FailureOptions } from './failure.ts';
import type { OkOf, OperationId } from '../../contract/operations.ts';

export function fail(message: string, options: FailureOptions = {}): never {
  throw new ConformanceFailure(message, options);
}

function shown(value: unknown, limit = 600): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

function errorOf(reply: Reply<OperationId | 'raw'>): ErrorBody['error'] | undefined {
  return (reply.json as ErrorBody | undefined)?.error;
}

function answered(reply: Reply<OperationId | 'raw'>): string {
  const error = errorOf(reply);
  return error ? `${reply.status} ${error.code}` : `${reply.status}`;
}

/** The request succeeded (200); returns its typed body. */
export function expectOk<K extends OperationId>(reply: Reply<K>, what?: string): OkOf<K> {
  if (reply.status !== 200) fail(`${what ?? reply.op}: expected 200, got ${answered(reply)}`, { exchange: reply.exchange });
  return reply.json as OkOf<K>;
}

/**
 * The request was refused with `code` and the catalogue's status for it;
 * `details`, when given, must hold these members with these values.
 */
export function expectError(
  reply: Reply<OperationId | 'raw'>,
  code: ErrorCode,
  details?: Record<string, unknown>,
  what?: string,
): ErrorBody['error'] {
  const status = ERROR_CATALOGUE[code].status;
  const error = errorOf(reply);
  const label = what ?? (reply.op === 'raw' ? `${reply.exchange.request.method} ${reply.exchange.request.url}` : reply.op);
  if (reply.status !== status || error?.code !== code)
    fail(`${label}: expected ${status} ${code}, got ${answered(reply)}`, { exchange: reply.exchange });
  for (const [key, value] of Object.entries(details ?? {})) {
    const actual = (error.details as Record<string, unknown> | undefined)?.[key];
    if (!isDeepStrictEqual(actual, value))
      fail(`${label}: ${code} details.${key} is ${shown(actual)}, expected ${shown(value)}`, { exchange: reply.exchange });
  }
  return error;
}

/**
 * The request was refused with one of `codes`, each with its catalogue
 * status: where the contract leaves open which of several true errors a
 * registry answers ([error-precedence]), a case accepts every one of them.
 */
export function expectOneOf(reply: Reply<OperationId | 'raw'>, codes: readonly ErrorCode[], what?: string): ErrorBody['error'] {
  const error = errorOf(reply);
  const label = what ?? (reply.op === 'raw' ? `${reply.exchange.request.method} ${reply.exchange.request.url}` : reply.op);
  const accepted = codes.find((code) => error?.code === code && reply.status === ERROR_CATALOGUE[code].status);
  if (accepted === undefined)
    fail(`${label}: expected ${codes.map((c) => `${ERROR_CATALOGUE[c].status} ${c}`).join(' or ')}, got ${answered(reply)}`, {
      exchange: reply.exchange,
    });
  return error!;
}

/**
 * A write the contract lets a registry answer `unchanged` or `CONFLICT`
 * (re-admitting or re-provisioning with the stored state changed since:
 * [records-version-immutable], [records-replica-provision]); either refuses
 * the change, and the case checks afterwards that nothing changed.
 */
export function expectUnchangedOrConflict(reply: Reply<OperationId | 'raw'>, what: string): void {
  if (reply.status === 200) {
    const outcome = (reply.json as { outcome?: unknown } | undefined)?.outcome;
    if (outcome !== 'unchanged')
      fail(`${what}: expected unchanged or 409 CONFLICT, got 200 ${shown(outcome)}`, { exchange: reply.exchange });
    return;
  }
  expectError(reply, 'CONFLICT', undefined, what);
}

/** Strict deep equality of JSON values. */
export function expectEqual(actual: unknown, expected: unknown, what: string, exchange?: Exchange): void {
  if (!isDeepStrictEqual(actual, expected)) fail(`${what}: got ${shown(actual)}, expected ${shown(expected)}`, { exchange });
}

export function expectNotEqual(actual: unknown, unexpected: unknown, what: string, exchange?: Exchange): void {
  if (isDeepStrictEqual(actual, unexpected)) fail(`${what}: got ${shown(actual)}, which it must not be`, { exchange });
}

export function expectTrue(condition: boolean, what: string, exchange?: Exchange): asserts condition {
  if (!condition) fail(what, { exchange });
}

export function expectAtMost(actual: number, max: number, what: string, exchange?: Exchange): void {
  if (!(actual <= max)) fail(`${what}: ${actual} is above ${max}`, { exchange });
}

export function expectAtLeast(actual: number, min: number, what: string, exchange?: Exchange): void {
  if (!(actual >= min)) fail(`${what}: ${actual} is below ${min}`, { exchange });
}

/** The first member of a deep structure where two values differ, for readable messages. */
export function firstDifference(a: unknown, b: unknown, path = ''): string | null {
  if (isDeepStrictEqual(a, b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) === !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
  }
  return `${path || '(root)'}: ${shown(a, 200)} ≠ ${shown(b, 200)}`;
}

/** Two values identical in every field; the message names the first field that differs. */
export function expectIdentical(actual: unknown, expected: unknown, what: string, exchange?: Exchange): void {
  const d = firstDifference(actual, expected);
  if (d) fail(`${what}: differs at ${d}`, { exchange });
}
