// A response crosses from the main thread to its VU thread as one flat array
// of primitives instead of an object holding objects: thousands cross every
// second, and the structured clone of a flat array costs a fraction of the
// clone of nested records. One module packs and unpacks, so both sides
// agree on the order.

/** @typedef {import('../http-service.ts').WireResponse} WireResponse */

const FIXED = 13;

/**
 * @param {WireResponse} r
 * @returns {Array<string | number>}
 */
export function packResponse(r) {
  const t = r.timings;
  /** @type {Array<string | number>} */
  const out = [
    r.status,
    r.status_text,
    r.body,
    r.error,
    r.error_code,
    t.duration,
    t.blocked,
    t.connecting,
    t.sending,
    t.waiting,
    t.receiving,
    r.bytes_sent,
    r.bytes_received,
  ];
  for (const k in r.headers) out.push(k, /** @type {string} */ (r.headers[k]));
  return out;
}

/**
 * @param {any[]} p what packResponse made
 * @returns {WireResponse}
 */
export function unpackResponse(p) {
  /** @type {Record<string, string>} */
  const headers = {};
  for (let i = FIXED; i < p.length; i += 2) headers[p[i]] = p[i + 1];
  return {
    status: p[0],
    status_text: p[1],
    body: p[2],
    error: p[3],
    error_code: p[4],
    timings: { duration: p[5], blocked: p[6], connecting: p[7], sending: p[8], waiting: p[9], receiving: p[10] },
    bytes_sent: p[11],
    bytes_received: p[12],
    headers,
  };
}
