// The main-thread side of the Node runner's HTTP: undici performs the
// requests the VU threads post, every VU's concurrently, with per-request
// timings close to k6's (waiting = until the response head, receiving =
// reading the body; connection set-up is not broken out). Thousands of
// requests a second pass through here, so each costs as little as it can:
// one keep-alive pool per origin, handed the path without parsing the URL
// again, undici's own coarse timers for the timeout instead of a timer per
// request, and one abort signal per VU (stopping it cancels its requests)
// instead of one per request.
import { Pool } from 'undici';
import { mapLimited } from '../map-limited.ts';

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

/** Where a URL's path begins: its origin is everything before. */
function pathStart(url: string): number {
  const authority = url.indexOf('//') + 2;
  for (let i = authority; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 47 || c === 63 || c === 35) return i; // '/', '?', '#'
  }
  return url.length;
}

/** Bytes of header lines as k6 counts them: name, value, ': ' and CRLF. */
function headerBytes(headers: Record<string, string>): number {
  let n = 0;
  for (const k in headers) n += k.length + headers[k]!.length + 4;
  return n;
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export class HttpService {
  private readonly pools = new Map<string, Pool>();
  private readonly batchLimit: number;

  constructor(options: { batch?: number; batchPerHost?: number }) {
    // k6 caps a batch at `batch` requests at once and `batchPerHost` per host;
    // every request here goes to one target, so the smaller cap applies.
    this.batchLimit = Math.max(1, Math.min(options.batch ?? 20, options.batchPerHost ?? 6));
  }

  private poolOf(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      // No connection cap: concurrency is bounded by the VUs and the batch cap.
      pool = new Pool(origin, { keepAliveTimeout: 30_000, pipelining: 1 });
      this.pools.set(origin, pool);
    }
    return pool;
  }

  /** `cancel` abandons the request (the VU that made it was interrupted); it is answered as failed. */
  async one(req: WireRequest, cancel?: AbortSignal): Promise<WireResponse> {
    const started = performance.now();
    const sent = req.method.length + req.url.length + 12 + headerBytes(req.headers) + (req.body ? Buffer.byteLength(req.body) : 0);
    const at = pathStart(req.url);
    try {
      const path = at < req.url.length ? req.url.slice(at) : '/';
      // Each phase of the exchange is bounded by the timeout; the whole of it is checked below.
      const res = await this.poolOf(req.url.slice(0, at)).request({
        path: path.startsWith('/') ? path : `/${path}`,
        method: req.method as 'GET',
        headers: req.headers,
        body: req.body ?? null,
        headersTimeout: req.timeoutMs,
        bodyTimeout: req.timeoutMs,
        ...(cancel ? { signal: cancel } : {}),
      });
      const head = performance.now();
      const body = await res.body.text();
      const done = performance.now();
      // k6's timeout bounds the whole request: an answer later than that is a timeout there.
      if (done - started > req.timeoutMs) return failed(sent, done - started, 'request timeout', 1050);
      const headers: Record<string, string> = {};
      for (const k in res.headers) {
        const v = res.headers[k];
        if (v !== undefined) headers[canonicalHeader(k)] = Array.isArray(v) ? v.join(', ') : v;
      }
      const received = Buffer.byteLength(body) + headerBytes(headers) + 17;
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
      const elapsed = performance.now() - started;
      const timedOut = TIMEOUT_CODES.has(e.code ?? '') || elapsed > req.timeoutMs;
      return failed(sent, elapsed, timedOut ? 'request timeout' : e.message, timedOut ? 1050 : errorCode(e));
    }
  }

  /** Performs every request, at most `batch` at a time, answers in request order. */
  async all(requests: WireRequest[], cancel?: AbortSignal): Promise<WireResponse[]> {
    if (requests.length === 1) return [await this.one(requests[0]!, cancel)];
    return mapLimited(requests, this.batchLimit, (r) => this.one(r, cancel));
  }

  /** Drops the pool of an origin no request will go to again. */
  async forget(origin: string): Promise<void> {
    const pool = this.pools.get(origin);
    this.pools.delete(origin);
    await pool?.destroy();
  }

  /** Requests still in flight belong to interrupted iterations: they are abandoned, as in k6, not awaited. */
  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.destroy()));
    this.pools.clear();
  }
}

/** A request that got no answer within its time, or none at all. */
function failed(sent: number, elapsed: number, error: string, errorCode: number): WireResponse {
  return {
    status: 0,
    status_text: '',
    headers: {},
    body: '',
    error,
    error_code: errorCode,
    timings: { duration: elapsed, blocked: 0, connecting: 0, sending: 0, waiting: elapsed, receiving: 0 },
    bytes_sent: sent,
    bytes_received: 0,
  };
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
