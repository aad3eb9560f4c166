// What an operation handler sees and returns. Handlers are keyed by the
// operationId of openapi.yaml; by the time one runs, the token, the roles of
// the operation, the media type, the size and the shape of the request have
// all been checked.
import type { RegistryLimits, VersionInfo } from '../../contract/records.ts';
import { invalid, notFound } from '../../contract/registry-error.ts';
import type { RegistryStore } from '../store/registry-store.ts';
import type { Principal } from './authenticate.ts';
import type { HttpMetrics } from './metrics.ts';
import type { ErrorLogger } from './error-response.ts';

export interface OperationInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  /** null only for the public operations (security: []). */
  principal: Principal | null;
}

export interface Reply {
  status: number;
  /** Serialised as JSON unless `text` is given. */
  body?: unknown;
  text?: string;
  contentType?: string;
}

export interface ServerDeps {
  store: RegistryStore;
  /** The limits the server advertises and enforces (store limits plus the body limit). */
  limits: RegistryLimits;
  version: VersionInfo;
  metrics: HttpMetrics;
  /** openapi.yaml as JSON, serialised once. */
  openApiJson: string;
  /** Where faults that must not reach the caller are reported. */
  log: ErrorLogger;
}

export interface OperationHandler {
  /** Checks that need only the token, run before the body is read ([auth-before-state]). */
  authorize?(principal: Principal): void;
  handle(input: OperationInput, deps: ServerDeps): Promise<Reply>;
}

export type HandlerTable = Record<string, OperationHandler>;

export const ok = (body: unknown): Reply => ({ status: 200, body });

/** A read of a record that may be absent: NOT_FOUND rather than a null body. */
export function found<T>(value: T | null, what: string): Reply {
  if (value === null) throw notFound(what);
  return ok(value);
}

/** A path names the record; a body naming a different one is not a valid request. */
export function samePathId(pathValue: string | undefined, bodyValue: unknown, name: string): void {
  if (pathValue !== bodyValue) throw invalid(`body ${name} does not match the path`, { in: 'body', path: `/${name}` });
}

export function principalOf(input: OperationInput): Principal {
  if (!input.principal) throw new Error('a protected operation ran without a principal');
  return input.principal;
}
