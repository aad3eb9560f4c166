// The Node runner's `k6/http`: request, the method helpers, batch and
// asyncRequest, with k6's request metrics and tags. A VU thread's requests
// are performed by the main thread (undici) while the VU blocks
// (sync-bridge.js); a batch is sent as one message and its requests run
// concurrently there, at most options.batch/batchPerHost at a time, as in
// k6. An async VU (local-vus.ts) runs in the runner's thread, where nothing
// may block: it has asyncRequest alone, performed there directly.
import { callMain } from './sync-bridge.js';
import { contextTags, current, emitRequest } from './vu-state.js';
import { unpackResponse } from './wire-response.js';

const EXPECTED = Symbol('expectedStatuses');

/**
 * @typedef {{ [EXPECTED]: Array<number | { min: number, max: number }> }} ExpectedStatuses
 * @typedef {{ headers?: Record<string, string>, tags?: Record<string, string>, timeout?: string | number,
 *   responseType?: 'text' | 'binary' | 'none', responseCallback?: ExpectedStatuses | null }} Params
 */

/** @param {Array<number | { min: number, max: number }>} statuses */
export function expectedStatuses(...statuses) {
  for (const s of statuses) {
    if (typeof s !== 'number' && !(s && typeof s.min === 'number' && typeof s.max === 'number')) {
      throw new Error('expectedStatuses takes status codes and {min, max} ranges');
    }
  }
  return { [EXPECTED]: statuses };
}

/** @type {ExpectedStatuses | null} */
const K6_DEFAULT_CALLBACK = expectedStatuses({ min: 200, max: 399 });

/** @param {ExpectedStatuses | null} callback */
export function setResponseCallback(callback) {
  current().responseCallback = callback;
}

function defaultCallback() {
  const set = /** @type {ExpectedStatuses | null | undefined} */ (current().responseCallback);
  return set === undefined ? K6_DEFAULT_CALLBACK : set;
}

/** @param {string | number | undefined} t */
function timeoutMs(t) {
  if (t === undefined) return 60000;
  if (typeof t === 'number') return t;
  const m = /^([0-9.]+)(ms|s|m|h)?$/.exec(t.trim());
  if (!m) throw new Error(`invalid timeout ${t}`);
  const unit = { ms: 1, s: 1000, m: 60000, h: 3600000 }[/** @type {'ms' | 's' | 'm' | 'h'} */ (m[2] ?? 'ms')];
  return Number(m[1]) * unit;
}

/**
 * @param {string} method
 * @param {string} url
 * @param {unknown} body
 * @param {Params} [params]
 */
function prepare(method, url, body, params = {}) {
  /** @type {Record<string, string>} */
  const headers = { 'User-Agent': current().options.userAgent || 'fleetproof-node-runner', ...(params.headers || {}) };
  let text = null;
  if (body !== null && body !== undefined) {
    if (typeof body === 'string') text = body;
    else if (typeof body === 'object') {
      // k6 form-encodes plain objects.
      text = new URLSearchParams(/** @type {Record<string, string>} */ (body)).toString();
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
        headers['Content-Type'] = 'application/x-www-form-urlencoded';
    } else text = String(body);
  }
  return { method: method.toUpperCase(), url: String(url), headers, body: text, timeoutMs: timeoutMs(params.timeout), params };
}

/**
 * @param {unknown} entry a URL, [method, url, body, params] or { method, url, body, params }
 */
function fromBatchEntry(entry) {
  if (typeof entry === 'string') return prepare('GET', entry, null);
  if (Array.isArray(entry)) return prepare(entry[0], entry[1], entry[2], entry[3]);
  const e = /** @type {{ method?: string, url: string, body?: unknown, params?: Params }} */ (entry);
  return prepare(e.method || 'GET', e.url, e.body, e.params);
}

/**
 * @param {number} status
 * @param {ExpectedStatuses | null | undefined} callback
 */
function isExpected(status, callback) {
  if (!callback) return true;
  return callback[EXPECTED].some((s) => (typeof s === 'number' ? s === status : status >= s.min && status <= s.max));
}

/**
 * Emits k6's request metrics and builds the Response object.
 * @param {ReturnType<typeof prepare>} req
 * @param {any} raw the main thread's reply for this request
 */
function respond(req, raw) {
  const callback = req.params.responseCallback === undefined ? defaultCallback() : req.params.responseCallback;
  const expected = raw.status !== 0 && isExpected(raw.status, callback);
  const userTags = req.params.tags || {};
  /** @type {Record<string, string>} */
  const tags = {
    ...contextTags(),
    method: req.method,
    url: req.url,
    name: userTags['name'] || req.url,
    status: String(raw.status),
    proto: 'HTTP/1.1',
  };
  if (callback) tags['expected_response'] = String(expected);
  if (raw.error) {
    tags['error'] = raw.error;
    tags['error_code'] = String(raw.error_code);
  }
  Object.assign(tags, userTags);
  const t = raw.timings;
  emitRequest(
    tags,
    [t.duration, t.blocked, t.connecting, 0, t.sending, t.waiting, t.receiving],
    raw.bytes_sent,
    raw.bytes_received,
    callback ? (expected ? 0 : 1) : null,
  );

  const responseType = req.params.responseType || (current().options.discardResponseBodies ? 'none' : 'text');
  const body = responseType === 'none' ? null : responseType === 'binary' ? new TextEncoder().encode(raw.body).buffer : raw.body;
  return {
    status: raw.status,
    status_text: raw.status_text,
    url: req.url,
    body,
    headers: raw.headers,
    timings: t,
    error: raw.error || '',
    error_code: raw.error_code || 0,
    proto: 'HTTP/1.1',
    remote_ip: '',
    remote_port: 0,
    request: { method: req.method, url: req.url, headers: req.headers, body: req.body ?? '', cookies: {} },
    cookies: {},
    /** @param {string} [selector] */
    json(selector) {
      if (typeof body !== 'string') throw new Error('the response has no text body');
      const value = JSON.parse(body);
      if (!selector) return value;
      return selector.split('.').reduce((v, key) => (v == null ? undefined : v[key]), value);
    },
  };
}

/** @param {ReturnType<typeof prepare>} r */
const wire = (r) => ({ method: r.method, url: r.url, headers: r.headers, body: r.body, timeoutMs: r.timeoutMs });

/** @param {string} what */
function blockingCall(what) {
  const s = current();
  if (s.inInit) throw new Error('HTTP requests are not allowed in the init context');
  if (s.local)
    throw new Error(
      `${what} blocks its VU, and an async function runs beside the other VUs in the Node runner's own thread: await http.asyncRequest instead`,
    );
}

/** @param {Array<ReturnType<typeof prepare>>} requests */
function perform(requests) {
  const reply = callMain({ type: 'http', requests: requests.map(wire) });
  return requests.map((r, i) => respond(r, unpackResponse(reply.responses[i])));
}

/**
 * @param {string} method
 * @param {string} url
 * @param {unknown} [body]
 * @param {Params} [params]
 */
export function request(method, url, body, params) {
  blockingCall('http.request');
  return /** @type {ReturnType<typeof respond>} */ (perform([prepare(method, url, body ?? null, params)])[0]);
}

/**
 * k6's http.asyncRequest. An async VU's request is performed in this thread
 * while its VU waits on the promise. When the runner interrupts the VU (the
 * scenario's hard end), the request is cancelled and the promise never
 * settles, so the iteration's code after it never runs, as in k6.
 * @param {string} method
 * @param {string} url
 * @param {unknown} [body]
 * @param {Params} [params]
 * @returns {Promise<ReturnType<typeof respond>>}
 */
export function asyncRequest(method, url, body, params) {
  const s = current();
  if (s.inInit) throw new Error('HTTP requests are not allowed in the init context');
  const local = s.local;
  // Thrown, not a rejected promise: on a VU thread nothing would ever see the rejection.
  if (!local)
    throw new Error(
      'http.asyncRequest needs an async function: the Node runner runs those in its own thread, and a VU thread never returns to an event loop',
    );
  const req = prepare(method, url, body ?? null, params);
  return new Promise((resolve, reject) => {
    local.http(wire(req), local.cancel.signal).then(
      (raw) => {
        if (local.interrupted) return;
        try {
          resolve(respond(req, raw));
        } catch (err) {
          reject(err);
        }
      },
      (err) => {
        if (!local.interrupted) reject(err);
      },
    );
  });
}

/** @param {unknown[] | Record<string, unknown>} requests */
export function batch(requests) {
  blockingCall('http.batch');
  if (Array.isArray(requests)) return perform(requests.map(fromBatchEntry));
  const keys = Object.keys(requests);
  const responses = perform(keys.map((k) => fromBatchEntry(requests[k])));
  return Object.fromEntries(keys.map((k, i) => [k, responses[i]]));
}

/** @param {string} url @param {Params} [params] */
export const get = (url, params) => request('GET', url, null, params);
/** @param {string} url @param {unknown} [body] @param {Params} [params] */
export const post = (url, body, params) => request('POST', url, body, params);
/** @param {string} url @param {unknown} [body] @param {Params} [params] */
export const put = (url, body, params) => request('PUT', url, body, params);
/** @param {string} url @param {unknown} [body] @param {Params} [params] */
export const patch = (url, body, params) => request('PATCH', url, body, params);
/** @param {string} url @param {unknown} [body] @param {Params} [params] */
export const del = (url, body, params) => request('DELETE', url, body, params);
/** @param {string} url @param {Params} [params] */
export const head = (url, params) => request('HEAD', url, null, params);
/** @param {string} url @param {unknown} [body] @param {Params} [params] */
export const options = (url, body, params) => request('OPTIONS', url, body, params);

export default { request, asyncRequest, batch, get, post, put, patch, del, head, options, expectedStatuses, setResponseCallback };
