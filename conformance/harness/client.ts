// The typed HTTP client of the harness. It knows every operation of
// openapi.yaml (method, path, roles, documented statuses and their schemas)
// and checks every response it receives before a case sees it:
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
import { request, type Dispatcher } from 'undici';
import type { ValidateFunction } from 'ajv';
import { ERROR_CATALOGUE, isErrorCode, SCOPE_KINDS, type ErrorBody } from '../../contract/errors.ts';
import { openApiDocument, operations, type OperationEntry } from '../../contract/openapi.ts';
import { compileSchema, describeViolation } from '../../contract/schemas.ts';
import { excerpt, redactHeaders, type CallerSummary, type Exchange } from './exchange.ts';
import { ConformanceFailure, HarnessError } from './failure.ts';
import type { BodyOf, OperationId, ParamsOf, QueryOf } from './operations.ts';
import type { Caller, TokenMinter } from './tokens.ts';

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

/** Who a request speaks as: claims to mint, an exact token string, or nobody (no Authorization header). */
export type Speaker = Caller | { token: string } | null;

export interface CallRequest<K extends OperationId> {
  params?: ParamsOf<K>;
  /** Path parameters placed in the path exactly as given, without percent-encoding. */
  rawParams?: Partial<Record<keyof ParamsOf<K> & string, string>>;
  query?: QueryOf<K> | Record<string, string | number | boolean>;
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
export type WriteObserver = (op: OperationId, params: Record<string, string>, body: unknown, caller: CallerSummary | null, reply: Reply) => void;

export interface ClientOptions {
  baseUrl: string;
  dispatcher: Dispatcher;
  tokens: TokenMinter;
  /** Per request: no answer within this time is a transport error (the case errors). */
  requestTimeoutMs: number;
  /** Receives every exchange, in order. */
  record?: (exchange: Exchange) => void;
  onWrite?: WriteObserver;
  signal?: AbortSignal;
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
    return new RegistryClient({ ...this.options, dispatcher }, this.speaker);
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** Calls an operation of openapi.yaml and checks the response against it. */
  async call<K extends OperationId>(op: K, req: CallRequest<K> = {}): Promise<Reply<K>> {
    const f = operationFacts().get(op);
    if (!f) throw new Error(`openapi.yaml has no operation ${op}`);
    const params = (req.params ?? {}) as Record<string, string>;
    const rawParams = (req.rawParams ?? {}) as Record<string, string>;
    let path = f.entry.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
      if (rawParams[name] !== undefined) return rawParams[name]!;
      const value = params[name];
      if (value === undefined) throw new Error(`${op}: path parameter ${name} missing`);
      return encodeURIComponent(value);
    });
    if (req.query) {
      const entries = Object.entries(req.query).filter(([, v]) => v !== undefined) as Array<[string, string | number | boolean]>;
      if (entries.length > 0) path += '?' + new URLSearchParams(entries.map(([k, v]): [string, string] => [k, String(v)])).toString();
    }
    const speaker = req.as !== undefined ? req.as : this.speaker !== undefined ? this.speaker : { roles: f.entry.roles ?? [] };
    const body = req.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(isUnchecked(req.body) ? req.body.value : req.body));
    const reply = await this.send(op, f.entry.method.toUpperCase(), path, speaker, body, req.contentType, req.headers);
    await this.check(f, reply, req.refusedBeforeStorage);
    if (reply.status === 200 && f.entry.method !== 'get' && this.options.onWrite) {
      this.options.onWrite(op, params, isUnchecked(req.body) ? req.body.value : req.body, reply.exchange.request.caller, reply);
    }
    return reply;
  }

  /** Any request at all (unknown paths, unsupported methods); error answers are still checked. */
  async raw(method: string, path: string, init: { body?: string | Buffer; contentType?: string; as?: Speaker; headers?: Record<string, string> } = {}): Promise<Reply<'raw'>> {
    const speaker = init.as !== undefined ? init.as : (this.speaker ?? null);
    const reply = await this.send('raw', method, path, speaker, init.body, init.contentType, init.headers);
    await this.checkServerError(reply);
    if (reply.status >= 400) this.checkErrorBody(reply);
    return reply;
  }

  private async authorization(speaker: Speaker): Promise<{ header: string | undefined; caller: CallerSummary | null }> {
    if (speaker === null) return { header: undefined, caller: null };
    if ('token' in speaker) return { header: `Bearer ${speaker.token}`, caller: this.options.tokens.describe(speaker.token) ?? { roles: [], tenant: null, note: 'token given as is' } };
    const token = await this.options.tokens.mint(speaker);
    return { header: `Bearer ${token}`, caller: { roles: [...speaker.roles], tenant: speaker.tenant ?? null } };
  }

  private async send<K extends OperationId | 'raw'>(
    op: K,
    method: string,
    path: string,
    speaker: Speaker,
    body: string | Buffer | undefined,
    contentType: string | undefined,
    extraHeaders: Record<string, string> | undefined,
  ): Promise<Reply<K>> {
    const { header, caller } = await this.authorization(speaker);
    const headers: Record<string, string> = { accept: 'application/json, text/plain;q=0.9', ...extraHeaders };
    if (header !== undefined) headers['authorization'] ??= header;
    if (body !== undefined) headers['content-type'] ??= contentType ?? 'application/json';
    const url = this.options.baseUrl + path;
    const started = Date.now();
    const exchange: Exchange = {
      request: { method, url, headers: redactHeaders(headers), caller, body: excerpt(body) },
      response: null,
      started_at: new Date(started).toISOString(),
      duration_ms: 0,
    };
    this.options.record?.(exchange);
    try {
      const res = await request(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        dispatcher: this.options.dispatcher,
        headersTimeout: this.options.requestTimeoutMs,
        bodyTimeout: this.options.requestTimeoutMs,
        ...(this.options.signal ? { signal: this.options.signal } : {}),
      });
      const buffer = Buffer.from(await res.body.arrayBuffer());
      const text = buffer.toString('utf8');
      const responseHeaders = redactHeaders(res.headers as Record<string, string | string[] | undefined>);
      exchange.response = { status: res.statusCode, headers: responseHeaders, body: excerpt(buffer) };
      exchange.duration_ms = Date.now() - started;
      let json: unknown;
      if ((responseHeaders['content-type'] ?? '').toLowerCase().startsWith('application/json') && text !== '') {
        try {
          json = JSON.parse(text);
        } catch {
          throw new ConformanceFailure(`${method} ${path}: the response says application/json but is not JSON`, { exchange, clause: 'wire-json' });
        }
      }
      return { op, status: res.statusCode, headers: responseHeaders, text, json, exchange };
    } catch (err) {
      if (ConformanceFailure.is(err)) throw err;
      exchange.duration_ms = Date.now() - started;
      exchange.transport_error = `${(err as { code?: string }).code ?? (err as Error).name}: ${(err as Error).message}`;
      // No answer says nothing about conformance: the case errors, it does not fail.
      throw new HarnessError(`${method} ${path}: no response (${exchange.transport_error})`);
    }
  }

  private async check(f: OperationFacts, reply: Reply, refusedBeforeStorage: StorageFreeClause | undefined): Promise<void> {
    // A status documented with a body of its own is an answer, not an error.
    const ownBody = f.ownBodyStatuses.has(reply.status);
    if (!ownBody) await this.checkServerError(reply, refusedBeforeStorage);
    const op = f.entry.operation.operationId;
    if (!f.statuses.has(reply.status)) {
      throw new ConformanceFailure(`${op} answered ${reply.status}, a status openapi.yaml does not document for it`, { exchange: reply.exchange });
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
      throw new ConformanceFailure(`${op} ${reply.status}: the body violates openapi.yaml: ${describeViolation(validate.errors).message}`, { exchange: reply.exchange });
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
        throw new ConformanceFailure('the registry answered STORAGE_UNAVAILABLE to input no schema accepts, while GET /ready says its storage serves', {
          exchange: reply.exchange,
          clause: 'error-no-server-error-on-input',
        });
      }
      throw new HarnessError(`the registry answered STORAGE_UNAVAILABLE (${reply.exchange.request.method} ${reply.exchange.request.url}): its storage failed, so the case could not observe anything`);
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
      throw new ConformanceFailure(`error code ${given} is not in the catalogue`, { exchange: reply.exchange, clause: 'error-catalogue-only' });
    }
    const validate = errorBodyValidator();
    if (!validate(reply.json)) {
      throw new ConformanceFailure(`error response ${reply.status}: not the error envelope: ${describeViolation(validate.errors).message}`, {
        exchange: reply.exchange,
        clause: 'error-body',
      });
    }
    const { code, retry_after_ms: retryAfterMs, details } = (reply.json as ErrorBody).error;
    const expected = ERROR_CATALOGUE[code].status;
    if (expected !== reply.status) {
      throw new ConformanceFailure(`${code} answered with status ${reply.status}; the catalogue gives it ${expected}`, { exchange: reply.exchange, clause: 'error-body' });
    }
    if (code === 'CAPACITY_EXCEEDED') {
      const header = reply.headers['retry-after'];
      const scope = (details as { scope?: unknown } | undefined)?.scope;
      const problems: string[] = [];
      if (!Number.isSafeInteger(retryAfterMs) || (retryAfterMs as number) < 1) problems.push('retry_after_ms is not a positive integer');
      else if (header !== String(Math.ceil((retryAfterMs as number) / 1000))) problems.push(`Retry-After is ${header ?? '(absent)'}, not ceil(${retryAfterMs} / 1000)`);
      if (!(SCOPE_KINDS as readonly unknown[]).includes(scope)) problems.push(`details.scope is ${JSON.stringify(scope)}, not a scope kind`);
      if (problems.length > 0) throw new ConformanceFailure(`CAPACITY_EXCEEDED without its retry guidance: ${problems.join('; ')}`, { exchange: reply.exchange, clause: 'error-capacity-guidance' });
    }
  }
}
