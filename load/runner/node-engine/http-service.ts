// The Node runner's HTTP: undici performs the VUs' requests, every VU's
// concurrently, with per-request timings close to k6's (waiting = until
// the response head, receiving = reading the body; connection set-up is
// not broken out). Thousands of requests a second pass through here, so
// each costs as little as it can: one keep-alive pool per origin, handed
// the path without parsing the URL again, undici's own coarse timers for
// the timeout instead of a timer per request, and one abort signal per VU
// (stopping it cancels its requests) instead of one per request.
import { Pool, type Dispatcher } from 'undici';

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

  private poolOf(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      // No connection cap: concurrency is bounded by the VUs and the requests each has in flight.
      pool = new Pool(origin, { keepAliveTimeout: 30_000, pipelining: 1 });
      this.pools.set(origin, pool);
    }
    return pool;
  }

  /**
   * In-flight requests per cancel signal: one listener per signal (a VU's)
   * aborts them all, instead of one listener added and removed per request.
   */
  private readonly cancellable = new WeakMap<AbortSignal, Set<Dispatcher.DispatchController>>();

  private inFlightOf(cancel: AbortSignal): Set<Dispatcher.DispatchController> {
    let set = this.cancellable.get(cancel);
    if (!set) {
      const controllers = new Set<Dispatcher.DispatchController>();
      cancel.addEventListener('abort', () => controllers.forEach((c) => c.abort(cancel.reason)), { once: true });
      this.cancellable.set(cancel, (set = controllers));
    }
    return set;
  }

  /**
   * `cancel` abandons the request (the VU that made it was interrupted); it
   * is answered as failed. undici's dispatch API hands the answer over as it
   * arrives, without the stream and promises of its request() API, which
   * cost the runner's thread more than the exchange itself.
   */
  one(req: WireRequest, cancel?: AbortSignal): Promise<WireResponse> {
    const started = performance.now();
    const sent = req.method.length + req.url.length + 12 + headerBytes(req.headers) + (req.body ? Buffer.byteLength(req.body) : 0);
    if (cancel?.aborted) return Promise.resolve(failed(sent, 0, 'request cancelled', 1000));
    const inFlight = cancel ? this.inFlightOf(cancel) : null;
    const at = pathStart(req.url);
    const path = at < req.url.length ? req.url.slice(at) : '/';
    return new Promise((resolve) => {
      let controller: Dispatcher.DispatchController | null = null;
      let status = 0;
      let head = 0;
      const headers: Record<string, string> = {};
      const chunks: Buffer[] = [];
      let bodyBytes = 0;
      const settle = (r: WireResponse) => {
        if (controller) inFlight?.delete(controller);
        resolve(r);
      };
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(c) {
          controller = c;
          inFlight?.add(c);
        },
        onResponseStart(_c, statusCode, raw) {
          status = statusCode;
          head = performance.now();
          for (const k in raw) {
            const v = raw[k];
            if (v !== undefined) headers[canonicalHeader(k)] = Array.isArray(v) ? v.join(', ') : v;
          }
        },
        onResponseData(_c, chunk) {
          chunks.push(chunk);
          bodyBytes += chunk.length;
        },
        onResponseEnd() {
          const done = performance.now();
          // k6's timeout bounds the whole request: an answer later than that is a timeout there.
          if (done - started > req.timeoutMs) return settle(failed(sent, done - started, 'request timeout', 1050));
          const body = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, bodyBytes).toString('utf8');
          settle({
            status,
            status_text: `${status}`,
            headers,
            body,
            error: status >= 400 ? `${status}` : '',
            error_code: status >= 400 ? 1000 + status : 0,
            timings: { duration: done - started, blocked: 0, connecting: 0, sending: 0, waiting: head - started, receiving: done - head },
            bytes_sent: sent,
            bytes_received: bodyBytes + headerBytes(headers) + 17,
          });
        },
        onResponseError(_c, err: Error & { code?: string }) {
          const elapsed = performance.now() - started;
          const timedOut = TIMEOUT_CODES.has(err.code ?? '') || elapsed > req.timeoutMs;
          settle(failed(sent, elapsed, timedOut ? 'request timeout' : err.message, timedOut ? 1050 : errorCode(err)));
        },
      };
      try {
        // Each phase of the exchange is bounded by the timeout; the whole of it is checked at the end.
        this.poolOf(req.url.slice(0, at)).dispatch(
          {
            path: path.startsWith('/') ? path : `/${path}`,
            method: req.method as Dispatcher.HttpMethod,
            headers: req.headers,
            body: req.body ?? null,
            headersTimeout: req.timeoutMs,
            bodyTimeout: req.timeoutMs,
          },
          handler,
        );
      } catch (err) {
        // An origin or request undici refuses before sending.
        const e = err as Error & { code?: string };
        settle(failed(sent, performance.now() - started, e.message, errorCode(e)));
      }
    });
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
