// The checking client of the harness. Requests travel over the contract's
// transport; this client knows every operation of openapi.yaml (roles,
// documented statuses and their schemas) and checks every response it
// receives before a case sees it:
//   - no 5xx except REPLICA_UNAVAILABLE / STORAGE_UNAVAILABLE ([error-no-server-error-on-input]),
//     unless the operation documents that status with a body of its own
//     (GET /ready's 503 `not_ready`);
//   - a status the operation documents;
//   - JSON bodies are application/json and well formed ([wire-json]);
//   - error bodies have the envelope and the catalogue status of their code ([error-body]);
//   - CAPACITY_EXCEEDED carries its retry guidance ([error-capacity-guidance]);
//   - success bodies match the operation's response schema.
// A violation is a ConformanceFailure carrying the exchange, so every failure
// shows the exact request and response that broke the contract.
// STORAGE_UNAVAILABLE normally means the case could observe nothing (a
// HarnessError); a request that must be refused before storage is reached
// says so with `refusedBeforeStorage`, and then it is a failure.
import type { Dispatcher } from 'undici';
import type { ValidateFunction } from 'ajv';
import { ERROR_CATALOGUE, isErrorCode, SCOPE_KINDS, type ErrorBody } from '../../contract/errors.ts';
import { openApiDocument, operations, type OperationEntry } from '../../contract/openapi.ts';
import type { BodyOf, OperationId } from '../../contract/operations.ts';
import { compileSchema, describeViolation } from '../../contract/schemas.ts';
import type { Speaker } from '../../client/credentials.ts';
import type { CallerSummary, Exchange } from '../../client/exchange.ts';
import { AnswerTooLarge, TransportError, type HttpTransport, type Received } from '../../client/http-transport.ts';
import type { OperationAddress } from '../../client/operation-path.ts';
import { ConformanceFailure, HarnessError } from './failure.ts';

const UNCHECKED = Symbol('unchecked body');

/** A body sent as given, deliberately not of the operation's type (bad-input cases). */
export interface Unchecked {
  readonly [UNCHECKED]: true;
  readonly value: unknown;
}

export function unchecked(value: unknown): Unchecked {
  return { [UNCHECKED]: true, value };
}

function isUnchecked(value: unknown): value is Unchecked {
  return typeof value === 'object' && value !== null && UNCHECKED in value;
}

export type { Speaker };

export interface CallRequest<K extends OperationId> extends OperationAddress<K> {
  body?: BodyOf<K> | Unchecked;
  /** Bytes sent as the body, as they are (malformed JSON, oversized bodies). */
  rawBody?: string | Buffer;
  /** Content-Type of the body; application/json unless given. */
  contentType?: string;
  headers?: Record<string, string>;
  /** Overrides the client's speaker for this call. */
  as?: Speaker;
  /**
   * This request must be refused without reaching storage, so a
   * STORAGE_UNAVAILABLE answer is a failure of this clause rather than an
   * environment fault:
   *   - `auth-before-state`: no token, a bad token or a missing role; the
   *     registry must refuse it before reading any state.
   *   - `error-no-server-error-on-input`: input no schema accepts; the
   *     registry refuses it at shape validation, which precedes every other
   *     rule. Here the storage is checked with GET /ready first: when the
   *     registry says it is not ready, the answer may be honest and the case
   *     errors instead.
   */
  refusedBeforeStorage?: StorageFreeClause;
}

export type StorageFreeClause = 'auth-before-state' | 'error-no-server-error-on-input';

export interface Reply<K extends OperationId | 'raw' = OperationId> {
  readonly op: K;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
  /** The parsed body when it is JSON, else undefined. */
  readonly json: unknown;
  readonly exchange: Exchange;
}

/** Told about every successful write, so the run can retire what it created. */
export type WriteObserver = (
  op: OperationId,
  params: Record<string, string>,
  body: unknown,
  caller: CallerSummary | null,
  reply: Reply,
) => void;

export interface ClientOptions {
  /** Carries the requests, speaks for the callers and records every exchange. */
  transport: HttpTransport;
  onWrite?: WriteObserver;
}

interface OperationFacts {
  entry: OperationEntry;
  /** Documented status → validator (null: not JSON). */
  statuses: Map<number, ValidateFunction | null>;
  contentTypes: Map<number, string | null>;
  /** Documented 4xx/5xx statuses whose body is not the error envelope (GET /ready's 503 ReadyStatus). */
  ownBodyStatuses: Set<number>;
}

const ERROR_BODY_REF = '#/components/schemas/ErrorBody';

let facts: Map<string, OperationFacts> | undefined;

function operationFacts(): Map<string, OperationFacts> {
  if (facts) return facts;
  facts = new Map();
  const doc = openApiDocument();
  for (const entry of operations()) {
    const statuses = new Map<number, ValidateFunction | null>();
    const contentTypes = new Map<number, string | null>();
    const ownBodyStatuses = new Set<number>();
    for (const [status, value] of Object.entries(entry.operation.responses)) {
      let response = value as { $ref?: string; content?: Record<string, { schema: unknown }> };
      if (response.$ref) response = doc.components.responses[response.$ref.replace('#/components/responses/', '')] as typeof response;
      const [type, media] = Object.entries(response.content ?? {})[0] ?? [null, null];
      contentTypes.set(Number(status), type);
      statuses.set(Number(status), type === 'application/json' && media ? compileSchema(media.schema) : null);
      const isErrorBody = (media?.schema as { $ref?: unknown } | undefined)?.$ref === ERROR_BODY_REF;
      if (Number(status) >= 400 && media && !isErrorBody) ownBodyStatuses.add(Number(status));
    }
    facts.set(entry.operation.operationId, { entry, statuses, contentTypes, ownBodyStatuses });
  }
  return facts;
}

const errorBodyValidator = () => compileSchema({ $ref: '#/components/schemas/ErrorBody' });

export class RegistryClient {
  constructor(
    private readonly options: ClientOptions,
    /** undefined: each operation's own roles without a tenant. */
    readonly speaker?: Speaker,
  ) {}

  /** The same client speaking as someone else. */
  as(speaker: Speaker): RegistryClient {
    return new RegistryClient(this.options, speaker);
  }

  /** The same client sending over another dispatcher (the pre-opened connections of a burst). */
  through(dispatcher: Dispatcher): RegistryClient {
    return new RegistryClient({ ...this.options, transport: this.options.transport.through(dispatcher) }, this.speaker);
  }

  get baseUrl(): string {
    return this.options.transport.baseUrl;
  }

  /** GET /health with its answer neither judged nor recorded: opens or warms a connection (a burst's), within the exchange's deadline. */
  async touch(): Promise<void> {
    await this.options.transport.with({ record: undefined }).send({ method: 'GET', path: '/health' });
  }

  /** Calls an operation of openapi.yaml and checks the response against it. */
  async call<K extends OperationId>(op: K, req: CallRequest<K> = {}): Promise<Reply<K>> {
    const f = operationFacts().get(op);
    if (!f) throw new Error(`openapi.yaml has no operation ${op}`);
    const speaker = req.as !== undefined ? req.as : this.speaker !== undefined ? this.speaker : { roles: f.entry.roles ?? [] };
    const body = req.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(isUnchecked(req.body) ? req.body.value : req.body));
    const reply = await this.receive(op, this.options.transport.operation(op, { ...req, as: speaker, body: undefined, rawBody: body }));
    await this.check(f, reply, req.refusedBeforeStorage);
    if (reply.status === 200 && f.entry.method !== 'get' && this.options.onWrite) {
      const params = (req.params ?? {}) as Record<string, string>;
      this.options.onWrite(op, params, isUnchecked(req.body) ? req.body.value : req.body, reply.exchange.request.caller, reply);
    }
    return reply;
  }

  /** Any request at all (unknown paths, unsupported methods); error answers are still checked. */
  async raw(
    method: string,
    path: string,
    init: { body?: string | Buffer; contentType?: string; as?: Speaker; headers?: Record<string, string> } = {},
  ): Promise<Reply<'raw'>> {
    const speaker = init.as !== undefined ? init.as : (this.speaker ?? null);
    const reply = await this.receive(
      'raw',
      this.options.transport.send({ method, path, as: speaker, body: init.body, contentType: init.contentType, headers: init.headers }),
    );
    await this.checkServerError(reply);
    if (reply.status >= 400) this.checkErrorBody(reply);
    return reply;
  }

  /** The answer as a Reply, its JSON read where it says it is JSON ([wire-json]). */
  private async receive<K extends OperationId | 'raw'>(op: K, sending: Promise<Received>): Promise<Reply<K>> {
    let received: Received;
    try {
      received = await sending;
    } catch (err) {
      // No answer, or one too large to read, says nothing about conformance: the case errors, it does not fail.
      if (TransportError.is(err) || err instanceof AnswerTooLarge) throw new HarnessError(err.message, { cause: err });
      throw err;
    }
    const { status, headers, text, exchange } = received;
    let json: unknown;
    if ((headers['content-type'] ?? '').toLowerCase().startsWith('application/json') && text !== '') {
      try {
        json = JSON.parse(text);
      } catch {
        const { method, url } = exchange.request;
        throw new ConformanceFailure(`${method} ${url.slice(this.baseUrl.length)}: the response says application/json but is not JSON`, {
          exchange,
          clause: 'wire-json',
        });
      }
    }
    return { op, status, headers, text, json, exchange };
  }

  private async check(f: OperationFacts, reply: Reply, refusedBeforeStorage: StorageFreeClause | undefined): Promise<void> {
    // A status documented with a body of its own is an answer, not an error.
    const ownBody = f.ownBodyStatuses.has(reply.status);
    if (!ownBody) await this.checkServerError(reply, refusedBeforeStorage);
    const op = f.entry.operation.operationId;
    if (!f.statuses.has(reply.status)) {
      throw new ConformanceFailure(`${op} answered ${reply.status}, a status openapi.yaml does not document for it`, {
        exchange: reply.exchange,
      });
    }
    const type = f.contentTypes.get(reply.status);
    if (type && !(reply.headers['content-type'] ?? '').toLowerCase().startsWith(type)) {
      throw new ConformanceFailure(`${op} ${reply.status}: content-type ${reply.headers['content-type'] ?? '(none)'} is not ${type}`, {
        exchange: reply.exchange,
        clause: 'wire-json',
      });
    }
    if (reply.status >= 400 && !ownBody) return this.checkErrorBody(reply);
    const validate = f.statuses.get(reply.status);
    if (validate && !validate(reply.json)) {
      throw new ConformanceFailure(`${op} ${reply.status}: the body violates openapi.yaml: ${describeViolation(validate.errors).message}`, {
        exchange: reply.exchange,
      });
    }
  }

  private async checkServerError(reply: Reply<OperationId | 'raw'>, refusedBeforeStorage?: StorageFreeClause): Promise<void> {
    if (reply.status < 500) return;
    const code = (reply.json as ErrorBody | undefined)?.error?.code;
    if (reply.status === 503 && code === 'STORAGE_UNAVAILABLE') {
      if (refusedBeforeStorage === 'auth-before-state') {
        throw new ConformanceFailure('the registry answered STORAGE_UNAVAILABLE to a request it must refuse before reading any state', {
          exchange: reply.exchange,
          clause: 'auth-before-state',
        });
      }
      if (refusedBeforeStorage === 'error-no-server-error-on-input' && (await this.storageReady())) {
        throw new ConformanceFailure(
          'the registry answered STORAGE_UNAVAILABLE to input no schema accepts, while GET /ready says its storage serves',
          {
            exchange: reply.exchange,
            clause: 'error-no-server-error-on-input',
          },
        );
      }
      throw new HarnessError(
        `the registry answered STORAGE_UNAVAILABLE (${reply.exchange.request.method} ${reply.exchange.request.url}): its storage failed, so the case could not observe anything`,
      );
    }
    if (reply.status === 503 && code === 'REPLICA_UNAVAILABLE') return;
    throw new ConformanceFailure(`the registry answered ${reply.status}${code ? ` ${code}` : ''}; no request may produce a server error`, {
      exchange: reply.exchange,
      clause: 'error-no-server-error-on-input',
    });
  }

  /** Whether GET /ready answers 200 now; anything else (not ready, no answer, a broken reply) is false. */
  private async storageReady(): Promise<boolean> {
    try {
      return (await this.as(null).call('getReady')).status === 200;
    } catch {
      return false;
    }
  }

  private checkErrorBody(reply: Reply<OperationId | 'raw'>): void {
    const given = (reply.json as { error?: { code?: unknown } } | undefined)?.error?.code;
    if (typeof given === 'string' && !isErrorCode(given)) {
      throw new ConformanceFailure(`error code ${given} is not in the catalogue`, {
        exchange: reply.exchange,
        clause: 'error-catalogue-only',
      });
    }
    const validate = errorBodyValidator();
    if (!validate(reply.json)) {
      throw new ConformanceFailure(
        `error response ${reply.status}: not the error envelope: ${describeViolation(validate.errors).message}`,
        {
          exchange: reply.exchange,
          clause: 'error-body',
        },
      );
    }
    const { code, retry_after_ms: retryAfterMs, details } = (reply.json as ErrorBody).error;
    const expected = ERROR_CATALOGUE[code].status;
    if (expected !== reply.status) {
      throw new ConformanceFailure(`${code} answered with status ${reply.status}; the catalogue gives it ${expected}`, {
        exchange: reply.exchange,
        clause: 'error-body',
      });
    }
    if (code === 'CAPACITY_EXCEEDED') {
      const header = reply.headers['retry-after'];
      const scope = (details as { scope?: unknown } | undefined)?.scope;
      const problems: string[] = [];
      if (!Number.isSafeInteger(retryAfterMs) || (retryAfterMs as number) < 1) problems.push('retry_after_ms is not a positive integer');
      else if (header !== String(Math.ceil((retryAfterMs as number) / 1000)))
        problems.push(`Retry-After is ${header ?? '(absent)'}, not ceil(${retryAfterMs} / 1000)`);
      if (!(SCOPE_KINDS as readonly unknown[]).includes(scope))
        problems.push(`details.scope is ${JSON.stringify(scope)}, not a scope kind`);
      if (problems.length > 0)
        throw new ConformanceFailure(`CAPACITY_EXCEEDED without its retry guidance: ${problems.join('; ')}`, {
          exchange: reply.exchange,
          clause: 'error-capacity-guidance',
        });
    }
  }
}
