// The one HTTP transport every side speaks the binding through: conformance,
// the property suites, the load audit and the directory bridge. It sends a
// request, reads the whole answer, and records the exchange as sent and as
// received; it judges nothing. Who speaks is its Credentials' business; what
// an answer means is the caller's. A request that got no answer throws a
// TransportError saying how it failed, because "never sent" and "sent, answer
// lost" mean different things to a checker.
import { Agent, errors, request, type Dispatcher } from 'undici';
import type { BodyOf, OperationId } from '../contract/operations.ts';
import { anonymous, type Credentials, type Speaker } from './credentials.ts';
import { excerpt, redactHeaders, type Exchange } from './exchange.ts';
import { operationPath, type OperationAddress } from './operation-path.ts';
import { FleetproofError } from './errors.ts';

export interface TransportOptions {
  baseUrl: string;
  credentials?: Credentials;
  /** A connection pool to share; without it the transport opens (and closes) its own. */
  dispatcher?: Dispatcher;
  /** Connections of the transport's own pool. */
  connections?: number;
  /** No response head, or a pause in the body, this long is a timeout. */
  timeoutMs: number;
  /** Receives every exchange as the request leaves, and sees it completed in place. */
  record?: (exchange: Exchange) => void;
  signal?: AbortSignal;
}

export interface SendRequest {
  method: string;
  /** The path with its query string. */
  path: string;
  /** Nobody unless given. */
  as?: Speaker;
  body?: string | Buffer | undefined;
  /** Content-Type of the body; application/json unless given. */
  contentType?: string | undefined;
  /** Sent as given; an `authorization` here wins over the speaker's. */
  headers?: Record<string, string> | undefined;
}

export interface OperationRequest<K extends OperationId> extends OperationAddress<K> {
  as?: Speaker;
  body?: BodyOf<K>;
  /** Bytes sent as the body instead of `body` serialised. */
  rawBody?: string | Buffer | undefined;
  contentType?: string | undefined;
  headers?: Record<string, string> | undefined;
}

export interface Received {
  status: number;
  /** Lower-case names, credentials redacted. */
  headers: Record<string, string>;
  body: Buffer;
  text: string;
  exchange: Exchange;
}

/**
 * How a request failed to get an answer: `unreachable` never left (the target
 * refused or does not exist), `lost` left and its answer did not come back,
 * `timeout` waited too long, `aborted` was called off by its caller.
 */
export type TransportFailure = 'unreachable' | 'lost' | 'timeout' | 'aborted' | 'failed';

export class TransportError extends FleetproofError {
  constructor(
    message: string,
    readonly failure: TransportFailure,
    readonly exchange: Exchange,
    options?: ErrorOptions,
  ) {
    super('FP_ERR_NO_ANSWER', message, options);
  }

  static override is(value: unknown): value is TransportError {
    return value instanceof TransportError;
  }
}

const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
const BROKEN_AFTER_SEND = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

function failureOf(err: unknown, callerAborted: boolean): TransportFailure {
  if (callerAborted) return 'aborted';
  const e = err as { name?: string; code?: string; cause?: { code?: string } };
  if (
    e.name === 'TimeoutError' ||
    e.name === 'AbortError' ||
    err instanceof errors.HeadersTimeoutError ||
    err instanceof errors.BodyTimeoutError
  )
    return 'timeout';
  const code = e.code ?? e.cause?.code ?? '';
  if (NEVER_SENT.has(code)) return 'unreachable';
  if (BROKEN_AFTER_SEND.has(code)) return 'lost';
  return 'failed';
}

export class HttpTransport {
  readonly baseUrl: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;

  constructor(private readonly options: TransportOptions) {
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:')
      throw new TypeError(`the registry URL must be http(s), not ${base.protocol}`);
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher =
      options.dispatcher ?? new Agent({ keepAliveTimeout: 10_000, ...(options.connections ? { connections: options.connections } : {}) });
  }

  /** The same target and pool, recording elsewhere or called off by another signal (one case of a run). */
  with(overrides: Pick<TransportOptions, 'record' | 'signal'>): HttpTransport {
    return new HttpTransport({ ...this.options, ...overrides, baseUrl: this.baseUrl, dispatcher: this.dispatcher });
  }

  /** The same transport sending over another dispatcher (pre-opened connections); the caller closes that dispatcher. */
  through(dispatcher: Dispatcher): HttpTransport {
    return new HttpTransport({ ...this.options, baseUrl: this.baseUrl, dispatcher });
  }

  /** One operation of openapi.yaml, addressed by its typed parameters. */
  operation<K extends OperationId>(op: K, req: OperationRequest<K> = {}): Promise<Received> {
    const { method, path } = operationPath(op, req);
    const body = req.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
    return this.send({ method, path, as: req.as ?? null, body, contentType: req.contentType, headers: req.headers });
  }

  async send(req: SendRequest): Promise<Received> {
    const { headers: credentialHeaders, caller } = await (this.options.credentials ?? anonymous).authorize(req.as ?? null);
    const headers: Record<string, string> = { accept: 'application/json, text/plain;q=0.9', ...req.headers };
    for (const [name, value] of Object.entries(credentialHeaders)) headers[name] ??= value;
    if (req.body !== undefined) headers['content-type'] ??= req.contentType ?? 'application/json';
    const url = this.baseUrl + req.path;
    const started = Date.now();
    const exchange: Exchange = {
      request: { method: req.method, url, headers: redactHeaders(headers), caller, body: excerpt(req.body) },
      response: null,
      started_at: new Date(started).toISOString(),
      duration_ms: 0,
    };
    this.options.record?.(exchange);
    try {
      const received = await this.perform(req.method, url, headers, req.body);
      exchange.response = { status: received.status, headers: received.headers, body: excerpt(received.body) };
      exchange.duration_ms = Date.now() - started;
      return { ...received, text: received.body.toString('utf8'), exchange };
    } catch (err) {
      exchange.duration_ms = Date.now() - started;
      exchange.transport_error = `${(err as { code?: string }).code ?? (err as Error).name}: ${(err as Error).message}`;
      const failure = failureOf(err, this.options.signal?.aborted === true);
      throw new TransportError(`${req.method} ${req.path}: no response (${exchange.transport_error})`, failure, exchange, { cause: err });
    }
  }

  /** The one place a request goes on the wire. */
  private async perform(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | Buffer | undefined,
  ): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
    const res = await request(url, {
      method: method as Dispatcher.HttpMethod,
      headers,
      body,
      dispatcher: this.dispatcher,
      headersTimeout: this.options.timeoutMs,
      bodyTimeout: this.options.timeoutMs,
      ...(this.options.signal ? { signal: this.options.signal } : {}),
    });
    const buffer = Buffer.from(await res.body.arrayBuffer());
    return { status: res.statusCode, headers: redactHeaders(res.headers as Record<string, string | string[] | undefined>), body: buffer };
  }

  /** Closes the pool when the transport opened it; a shared pool is its owner's to close. */
  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }
}

/** The body of an answer as JSON; undefined when it is empty, NotJson when it is something else. */
export function jsonBody(received: Received): unknown {
  if (received.text === '') return undefined;
  try {
    return JSON.parse(received.text);
  } catch {
    throw new NotJson(
      `${received.exchange.request.method} ${received.exchange.request.url} answered ${received.status} with a body that is not JSON`,
    );
  }
}

export class NotJson extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_NOT_JSON', message, options);
  }
}
