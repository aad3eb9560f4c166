// The only way the provider reaches Kubernetes: an injected executor that
// declares, up front, that it adds no behaviour of its own. Authentication,
// TLS and credentials live inside the executor and never in the binding or
// in any error; redirects, proxies, caches, limiters and retries are absent,
// so every request the directory makes is exactly one attempt it can count.
import { invalidInput } from '../outcome.ts';

export interface ExecutorGuarantees {
  version: 'v1';
  exactlyOneAttempt: boolean;
  noRedirect: boolean;
  noEnvironmentProxy: boolean;
  noResponseCache: boolean;
  noImplicitLimiter: boolean;
  noRetry: boolean;
  noAuthoritySwitch: boolean;
  noHiddenReauthentication: boolean;
}

export const ALL_GUARANTEES: Readonly<ExecutorGuarantees> = Object.freeze({
  version: 'v1',
  exactlyOneAttempt: true,
  noRedirect: true,
  noEnvironmentProxy: true,
  noResponseCache: true,
  noImplicitLimiter: true,
  noRetry: true,
  noAuthoritySwitch: true,
  noHiddenReauthentication: true,
});

export function declaresAllGuarantees(g: unknown): boolean {
  if (typeof g !== 'object' || g === null) return false;
  const declared = g as Record<string, unknown>;
  return Object.entries(ALL_GUARANTEES).every(([k, v]) => declared[k] === v);
}

/**
 * A response body the directory reads and always destroys when done.
 * `destroy()` must be safe to call at any time, read or not, without
 * raising anything of its own.
 */
export interface ResponseBody extends AsyncIterable<Uint8Array> {
  destroy(error?: Error): void;
}

export interface KubernetesResponse {
  statusCode: number;
  /** null only from a broken executor; the directory treats it as invalid. */
  body: ResponseBody | null;
}

export interface KubernetesRequestExecutor {
  guarantees(): ExecutorGuarantees;
  /**
   * One attempt. Rejects only for transport failures (or when `signal`
   * aborts); every HTTP status is a response. Ownership of the body passes
   * to the caller.
   */
  execute(request: KubernetesRequest, signal: AbortSignal): Promise<KubernetesResponse>;
}

/** An immutable GET request; headers are copied in and out. */
export class KubernetesRequest {
  readonly #method: 'GET';
  readonly #url: string;
  readonly #headers: ReadonlyMap<string, string>;

  constructor(url: string, headers: Readonly<Record<string, string>>) {
    if (typeof url !== 'string' || typeof headers !== 'object' || headers === null) throw invalidInput();
    this.#method = 'GET';
    this.#url = url;
    this.#headers = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  }

  method(): 'GET' {
    return this.#method;
  }

  url(): string {
    return this.#url;
  }

  /** A copy, keys in lower case. */
  headers(): Record<string, string> {
    return Object.fromEntries(this.#headers);
  }

  /** Case-insensitive; undefined when absent. */
  header(name: string): string | undefined {
    return this.#headers.get(String(name).toLowerCase());
  }
}
