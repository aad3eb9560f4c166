// The main-thread side of the Node runner's HTTP: undici performs the
// requests the VU threads post, every VU's concurrently, with per-request
// timings close to k6's (waiting = until the response head, receiving =
// reading the body; connection set-up is not broken out).
import { Agent, request } from 'undici';

export interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
  timeoutMs: number;
}

export interface WireResponse {
  status: number;
  status_text: string;
  headers: Record<string, string>;
  body: string;
  error: string;
  error_code: number;
  timings: { duration: number; blocked: number; connecting: number; sending: number; waiting: number; receiving: number };
  bytes_sent: number;
  bytes_received: number;
}

/** k6's error codes for the failures undici reports. */
function errorCode(err: Error & { code?: string }): number {
  switch (err.code) {
    case 'ECONNREFUSED':
      return 1212;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 1101;
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 1050;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 1220;
    default:
      return 1000;
  }
}

export class HttpService {
  private readonly agent: Agent;
  private readonly batchLimit: number;

  constructor(options: { batch?: number; batchPerHost?: number }) {
    // k6 caps a batch at `batch` requests at once and `batchPerHost` per host;
    // every request here goes to one target, so the smaller cap applies.
    this.batchLimit = Math.max(1, Math.min(options.batch ?? 20, options.batchPerHost ?? 6));
    // No connection cap: concurrency is bounded by the VUs and the batch cap.
    this.agent = new Agent({ keepAliveTimeout: 30_000, pipelining: 1 });
  }

  async one(req: WireRequest): Promise<WireResponse> {
    const started = performance.now();
    const headerBytes = Object.entries(req.headers).reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
    const sent = req.method.length + req.url.length + 12 + headerBytes + (req.body ? Buffer.byteLength(req.body) : 0);
    const signal = AbortSignal.timeout(req.timeoutMs);
    try {
      const res = await request(req.url, {
        method: req.method as 'GET',
        headers: req.headers,
        body: req.body ?? undefined,
        dispatcher: this.agent,
        signal,
      });
      const head = performance.now();
      const body = await res.body.text();
      const done = performance.now();
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[canonicalHeader(k)] = Array.isArray(v) ? v.join(', ') : v;
      const received = Buffer.byteLength(body) + Object.entries(headers).reduce((n, [k, v]) => n + k.length + v.length + 4, 0) + 17;
      return {
        status: res.statusCode,
        status_text: `${res.statusCode}`,
        headers,
        body,
        error: res.statusCode >= 400 ? `${res.statusCode}` : '',
        error_code: res.statusCode >= 400 ? 1000 + res.statusCode : 0,
        timings: { duration: done - started, blocked: 0, connecting: 0, sending: 0, waiting: head - started, receiving: done - head },
        bytes_sent: sent,
        bytes_received: received,
      };
    } catch (err) {
      const e = err as Error & { code?: string };
      const timedOut = signal.aborted;
      const elapsed = performance.now() - started;
      return {
        status: 0,
        status_text: '',
        headers: {},
        body: '',
        error: timedOut ? 'request timeout' : e.message,
        error_code: timedOut ? 1050 : errorCode(e),
        timings: { duration: elapsed, blocked: 0, connecting: 0, sending: 0, waiting: elapsed, receiving: 0 },
        bytes_sent: sent,
        bytes_received: 0,
      };
    }
  }

  /** Performs every request, at most `batch` at a time, answers in request order. */
  async all(requests: WireRequest[]): Promise<WireResponse[]> {
    if (requests.length === 1) return [await this.one(requests[0]!)];
    const out: WireResponse[] = new Array(requests.length);
    let next = 0;
    const lane = async () => {
      while (next < requests.length) {
        const i = next++;
        out[i] = await this.one(requests[i]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.batchLimit, requests.length) }, lane));
    return out;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

const canonicalNames = new Map<string, string>();

/** k6 shows response headers in canonical form (Content-Type); a registry answers with few names, worked out once each. */
function canonicalHeader(name: string): string {
  let canonical = canonicalNames.get(name);
  if (canonical === undefined) {
    canonical = name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
    if (canonicalNames.size < 1000) canonicalNames.set(name, canonical);
  }
  return canonical;
}
