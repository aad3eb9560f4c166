// The one HTTP transport every side speaks the binding through: conformance,
// the property suites, the load audit and the directory bridge. It sends a
// request, reads the whole answer, and records the exchange as sent and as
// received; it judges nothing. Who speaks is its Credentials' business; what
// an answer means is the caller's. A request that got no answer throws a
// TransportError saying how it failed, because "never sent" and "sent, answer
// lost" mean different things to a checker.
// Every exchange is bounded: one deadline covers connecting, the answer's
// head and its body, and the body is read up to a bound (answer-limit.ts),
// never held past it. A request the contract makes safe to repeat (a read, a
// PUT of a record: [records-identical-put]) that a kept-alive connection lost
// before any byte of its answer is sent once more on a new connection; any
// other request goes on a new connection of its own, which cannot be closing
// under it (connections.ts), so a target closing idle connections never leaves a
// resolve or a settlement indeterminate.
import { errors, request, type Dispatcher } from 'undici';
import type { BodyOf, OperationId } from '../contract/operations.ts';
import { anonymous, type Credentials, type Speaker } from './credentials.ts';
import { excerpt, redactHeaders, type Exchange } from './exchange.ts';
import { operationPath, type OperationAddress } from './operation-path.ts';
import { FleetproofError } from './errors.ts';
import { ANSWER_LIMIT_FLOOR_BYTES, describeBytes } from './answer-limit.ts';
import { connectionPool, failedOnReusedConnection, freshConnection } from './connections.ts';

export interface TransportOptions {
  baseUrl: string;
  credentials?: Credentials;
  /** A connection pool to share; without it the transport opens (and closes) its own. */
  dispatcher?: Dispatcher;
  /** Connections of the transport's own pool. */
  connections?: number;
  /** The whole exchange (connecting, the answer's head and its body) within this long, or it is a timeout. */
  timeoutMs: number;
  /** The largest answer body read (answer-limit.ts); the floor until the target's limits are known. */
  answerLimitBytes?: number;
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

/** An answer larger than the run reads: no legal answer is, under the limits the target declares. */
export class AnswerTooLarge extends FleetproofError {
  constructor(
    message: string,
    readonly exchange: Exchange,
  ) {
    super('FP_ERR_ANSWER_TOO_LARGE', message);
  }
}

const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
const BROKEN_AFTER_SEND = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
/** RFC 9110's idempotent methods the binding uses: its reads, and its PUTs, each a record written whole ([records-identical-put]). */
const SAFE_TO_REPEAT = new Set(['GET', 'HEAD', 'PUT']);

function failureOf(err: unknown): TransportFailure {
  const e = err as { name?: string; code?: string; cause?: { code?: string } };
  if (err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError) return 'timeout';
  const code = e.code ?? e.cause?.code ?? '';
  if (NEVER_SENT.has(code)) return 'unreachable';
  if (BROKEN_AFTER_SEND.has(code)) return 'lost';
  return 'failed';
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The connections a transport sends over, shared by the transports made from it. */
interface Connections {
  /** Requests that may be repeated, and every request over connections a caller opened (a burst's). */
  dispatcher: Dispatcher;
  /** Whether requests that may not be repeated each go on a new connection of their own (not when the caller brought its connections). */
  ownConnections: boolean;
  /** Closed by the transport that opened them. */
  closes: boolean;
}

/** Where one attempt goes: the pool, or a new connection of its own, which no target can be closing as idle. */
type Route = 'pool' | 'fresh';

export class HttpTransport {
  readonly baseUrl: string;
  private readonly connections: Connections;

  constructor(
    private readonly options: TransportOptions,
    shared?: Connections,
  ) {
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:')
      throw new TypeError(`the registry URL must be http(s), not ${base.protocol}`);
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.connections = shared
      ? { ...shared, closes: false }
      : options.dispatcher
        ? { dispatcher: options.dispatcher, ownConnections: false, closes: false }
        : { dispatcher: connectionPool(options.connections), ownConnections: true, closes: true };
  }

  /** The same target and pool, recording elsewhere, called off by another signal (one case of a run) or reading more. */
  with(overrides: Pick<TransportOptions, 'record' | 'signal' | 'answerLimitBytes'>): HttpTransport {
    return new HttpTransport({ ...this.options, ...overrides, baseUrl: this.baseUrl }, this.connections);
  }

  /** The same transport sending over another dispatcher (pre-opened connections); the caller closes that dispatcher. */
  through(dispatcher: Dispatcher): HttpTransport {
    return new HttpTransport({ ...this.options, baseUrl: this.baseUrl }, { dispatcher, ownConnections: false, closes: false });
  }

  /** The largest answer body this transport reads. */
  get answerLimitBytes(): number {
    return this.options.answerLimitBytes ?? ANSWER_LIMIT_FLOOR_BYTES;
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
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.options.timeoutMs);
    const signal = this.options.signal ? AbortSignal.any([this.options.signal, deadline.signal]) : deadline.signal;
    const repeatable = SAFE_TO_REPEAT.has(req.method.toUpperCase());
    // Set once an answer's head came: from then on the target has answered, however badly, and nothing is sent again.
    const answering = { head: false };
    const send = (route: Route) => this.perform(req.method, url, headers, req.body, signal, route, exchange, answering);
    try {
      let answer: Answer;
      try {
        answer = await send(repeatable || !this.connections.ownConnections ? 'pool' : 'fresh');
      } catch (err) {
        if (!repeatable || signal.aborted || answering.head || !failedOnReusedConnection(err)) throw err;
        exchange.resent = `a kept-alive connection closed under the first attempt (${describe(err)}); sent again on a new connection`;
        answer = await send('fresh');
      }
      exchange.response = { status: answer.status, headers: answer.headers, body: excerpt(answer.body) };
      return { ...answer, text: answer.body.toString('utf8'), exchange };
    } catch (err) {
      exchange.transport_error = describe(err);
      if (err instanceof AnswerTooLarge) throw err;
      const failure: TransportFailure = this.options.signal?.aborted ? 'aborted' : deadline.signal.aborted ? 'timeout' : failureOf(err);
      // The deadline's own abort says nothing the time limit does not; any other error says how the exchange broke.
      const what =
        failure !== 'timeout'
          ? `no response (${exchange.transport_error})`
          : isAbort(err)
            ? `no whole answer within ${this.options.timeoutMs} ms`
            : `no whole answer within ${this.options.timeoutMs} ms (${exchange.transport_error})`;
      throw new TransportError(`${req.method} ${req.path}: ${what}`, failure, exchange, { cause: err });
    } finally {
      clearTimeout(timer);
      exchange.duration_ms = Date.now() - started;
    }
  }

  /** The one place a request goes on the wire. */
  private async perform(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | Buffer | undefined,
    signal: AbortSignal,
    route: Route,
    exchange: Exchange,
    answering: { head: boolean },
  ): Promise<Answer> {
    const over = async (dispatcher: Dispatcher): Promise<Answer> => {
      const res = await request(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        dispatcher,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        signal,
      });
      answering.head = true;
      const answered = { status: res.statusCode, headers: redactHeaders(res.headers as Record<string, string | string[] | undefined>) };
      return { ...answered, body: await this.readBody(res.body, answered, exchange) };
    };
    if (route === 'pool') return over(this.connections.dispatcher);
    const fresh = freshConnection(new URL(url).origin);
    try {
      return await over(fresh);
    } finally {
      await fresh.destroy();
    }
  }

  /** The body up to the bound; past it the connection is dropped, the rest never read. */
  private async readBody(body: Dispatcher.ResponseData['body'], answered: Omit<Answer, 'body'>, exchange: Exchange): Promise<Buffer> {
    const limit = this.answerLimitBytes;
    const declared = Number(answered.headers['content-length']);
    const tooLarge = (size: string) => {
      body.destroy();
      const { method, url } = exchange.request;
      return new AnswerTooLarge(
        `${method} ${url.slice(this.baseUrl.length)} answered ${answered.status} with a body of ${size}, more than the ${describeBytes(limit)} this run reads: no legal answer is that large under the limits the target declares`,
        exchange,
      );
    };
    if (declared > limit) throw tooLarge(`${declared} bytes (Content-Length)`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw tooLarge(`over ${describeBytes(limit)} (${size} bytes read when the run stopped reading)`);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, size);
  }

  /** Closes the pool when the transport opened it; a shared pool is its owner's to close. */
  async close(): Promise<void> {
    if (!this.connections.closes) return;
    await this.connections.dispatcher.close();
  }
}

const isAbort = (err: unknown) => (err as Error)?.name === 'AbortError';

function describe(err: unknown): string {
  return `${(err as { code?: string }).code ?? (err as Error).name}: ${(err as Error).message}`;
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
