// The lifecycle operations over the HTTP binding (openapi.yaml): PUT
// /v1/replicas/{id}, POST /v1/replicas/{id}/health and GET /v1/replicas/{id},
// each with a bearer token holding registry:lifecycle and registry:reader.
// An error answer becomes a RegistryError with the answer's catalogue code;
// a transport failure or an unexpected answer is an ordinary Error.
import { Agent, request, type Dispatcher } from 'undici';
import { ERROR_CATALOGUE, type ErrorCode } from '../../../contract/errors.ts';
import type { ConnectorReplica, HealthReport, ReplicaProvision, WriteResult } from '../../../contract/records.ts';
import { RegistryError } from '../../../contract/registry-error.ts';
import type { LifecyclePort } from './lifecycle-port.ts';

export interface HttpLifecycleOptions {
  /** The registry's base URL, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** A current token with registry:lifecycle and registry:reader. */
  token(): Promise<string>;
  /** Per-request limit on waiting for the answer. */
  timeoutMs?: number;
  dispatcher?: Dispatcher;
}

function isCatalogueCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CATALOGUE, code);
}

export class HttpLifecyclePort implements LifecyclePort {
  readonly #base: string;
  readonly #token: () => Promise<string>;
  readonly #timeoutMs: number;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;

  constructor(options: HttpLifecycleOptions) {
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new TypeError('the registry URL must be http(s)');
    this.#base = base.href.replace(/\/+$/, '');
    this.#token = options.token;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.#dispatcher = options.dispatcher ?? new Agent({ keepAliveTimeout: 10_000 });
  }

  async provisionReplica(record: ReplicaProvision): Promise<WriteResult<ConnectorReplica>> {
    return (await this.#call('PUT', `/v1/replicas/${encodeURIComponent(record.id)}`, record)) as WriteResult<ConnectorReplica>;
  }

  async reportHealth(id: string, report: HealthReport): Promise<WriteResult<ConnectorReplica>> {
    return (await this.#call('POST', `/v1/replicas/${encodeURIComponent(id)}/health`, report)) as WriteResult<ConnectorReplica>;
  }

  async getReplica(id: string): Promise<ConnectorReplica | null> {
    try {
      return (await this.#call('GET', `/v1/replicas/${encodeURIComponent(id)}`)) as ConnectorReplica;
    } catch (err) {
      if (RegistryError.is(err) && err.code === 'NOT_FOUND') return null;
      throw err;
    }
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  async #call(method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = { authorization: `Bearer ${await this.#token()}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await request(this.#base + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher: this.#dispatcher,
      headersTimeout: this.#timeoutMs,
      bodyTimeout: this.#timeoutMs,
    });
    const text = await res.body.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new Error(`${method} ${path}: answer ${res.statusCode} is not JSON`);
    }
    if (res.statusCode === 200) return json;
    const error = (json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    if (isCatalogueCode(error?.code)) throw new RegistryError(error.code, typeof error.message === 'string' ? error.message : error.code);
    throw new Error(`${method} ${path}: unexpected answer ${res.statusCode}`);
  }
}
