// The Node runner's `k6/http`: asyncRequest, with k6's request metrics and
// tags, performed by undici in the runner's thread, where every VU lives
// (virtual-users.ts). The blocking calls (request, the method helpers,
// batch) would stop every VU there: they are refused, and the test ends as
// one that could not run (vu-state.js refuseBlocking).
import { contextTags, current, emitRequest, refuseBlocking } from './vu-state.js';

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
 * @param {import('../http-service.ts').WireResponse} raw
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

/**
 * @param {string} call
 * @returns {never}
 */
function blocking(call) {
  if (current().inInit) throw new Error('HTTP requests are not allowed in the init context');
  return refuseBlocking(call, 'await http.asyncRequest instead');
}

/**
 * k6's http.asyncRequest: the request is performed in this thread while
 * its VU waits on the promise. When the runner interrupts the VU (the
 * scenario's hard end), the request is cancelled and the promise never
 * settles, so the iteration's code after it never runs, as in k6.
 * @param {string} method
 * @param {string} url
 * @param {unknown} [body]
 * @param {Params} [params]
 * @returns {Promise<ReturnType<typeof respond>>}
 */
export function asyncRequest(method, url, body, params) {
  const vu = current().vu;
  if (!vu) throw new Error('HTTP requests are not allowed in the init context');
  const req = prepare(method, url, body ?? null, params);
  return new Promise((resolve, reject) => {
    vu.http(wire(req), vu.cancel.signal).then(
      (raw) => {
        if (vu.interrupted) return;
        try {
          resolve(respond(req, raw));
        } catch (err) {
          reject(err);
        }
      },
      (err) => {
        if (!vu.interrupted) reject(err);
      },
    );
  });
}

/** @param {unknown[] | Record<string, unknown>} _requests */
export const batch = (_requests) => blocking('http.batch');

/** @param {string} _method @param {string} _url @param {unknown} [_body] @param {Params} [_params] */
export const request = (_method, _url, _body, _params) => blocking('http.request');
/** @param {string} _url @param {Params} [_params] */
export const get = (_url, _params) => blocking('http.get');
/** @param {string} _url @param {unknown} [_body] @param {Params} [_params] */
export const post = (_url, _body, _params) => blocking('http.post');
/** @param {string} _url @param {unknown} [_body] @param {Params} [_params] */
export const put = (_url, _body, _params) => blocking('http.put');
/** @param {string} _url @param {unknown} [_body] @param {Params} [_params] */
export const patch = (_url, _body, _params) => blocking('http.patch');
/** @param {string} _url @param {unknown} [_body] @param {Params} [_params] */
export const del = (_url, _body, _params) => blocking('http.del');
/** @param {string} _url @param {Params} [_params] */
export const head = (_url, _params) => blocking('http.head');
/** @param {string} _url @param {unknown} [_body] @param {Params} [_params] */
export const options = (_url, _body, _params) => blocking('http.options');

export default { request, asyncRequest, batch, get, post, put, patch, del, head, options, expectedStatuses, setResponseCallback };
