// The real request executor: one undici Pool bound to the API origin. Every
// request is exactly one attempt on that origin. Nothing here follows
// redirects (a 3xx is returned as a status), reads proxy variables, caches,
// rate-limits, retries, or refreshes credentials: the Pool has no
// interceptors, and the bearer token and TLS material are fixed at creation.
import { Pool } from 'undici';
import { isCanonicalOrigin } from '../target.ts';
import {
  ALL_GUARANTEES,
  type ExecutorGuarantees,
  type KubernetesRequest,
  type KubernetesRequestExecutor,
  type KubernetesResponse,
} from './executor.ts';

export interface UndiciExecutorOptions {
  /** The only origin requests may go to: the binding's API origin. */
  origin: string;
  /** Sent as `Authorization: Bearer …` on every request. */
  bearerToken?: string;
  /** PEM trust anchors for https origins (the cluster CA). */
  ca?: string;
  /** Client certificate and key (PEM), for clusters that authenticate by certificate. */
  cert?: string;
  key?: string;
  connectTimeoutMs?: number;
  /** Time to wait for response headers; watch bodies themselves never time out. */
  headersTimeoutMs?: number;
}

export class UndiciRequestExecutor implements KubernetesRequestExecutor {
  readonly #origin: string;
  readonly #pool: Pool;
  readonly #authorization: string | undefined;

  constructor(options: UndiciExecutorOptions) {
    if (!isCanonicalOrigin(options.origin)) throw new TypeError('the executor origin must be a canonical http(s) origin');
    if (options.bearerToken !== undefined && !/^[\x21-\x7e]+$/.test(options.bearerToken))
      throw new TypeError('the bearer token must be visible ASCII');
    this.#origin = options.origin;
    this.#authorization = options.bearerToken === undefined ? undefined : `Bearer ${options.bearerToken}`;
    this.#pool = new Pool(options.origin, {
      connect: {
        ...(options.ca !== undefined ? { ca: options.ca } : {}),
        ...(options.cert !== undefined ? { cert: options.cert } : {}),
        ...(options.key !== undefined ? { key: options.key } : {}),
        rejectUnauthorized: true,
        timeout: options.connectTimeoutMs ?? 10_000,
      },
      headersTimeout: options.headersTimeoutMs ?? 30_000,
      // A watch may be silent for a long time; its end is the server's call.
      bodyTimeout: 0,
      pipelining: 1,
    });
  }

  guarantees(): ExecutorGuarantees {
    return { ...ALL_GUARANTEES };
  }

  async execute(request: KubernetesRequest, signal: AbortSignal): Promise<KubernetesResponse> {
    const url = new URL(request.url());
    // Refusing any other authority keeps credentials on the configured origin.
    if (url.origin !== this.#origin) throw new Error('request outside the configured origin');
    const headers: Record<string, string> = request.headers();
    if (this.#authorization !== undefined) headers['authorization'] = this.#authorization;
    const response = await this.#pool.request({ path: `${url.pathname}${url.search}`, method: request.method(), headers, signal });
    // undici reports a deliberate destroy as an 'error' event; the directory
    // learns of real failures by iterating, so this listener only keeps its
    // own destroy from becoming an uncaught exception.
    response.body.on('error', () => {});
    return { statusCode: response.statusCode, body: response.body };
  }

  async close(): Promise<void> {
    await this.#pool.destroy();
  }
}
