// One HTTP request's k6 metrics (http_reqs, the seven timing trends,
// http_req_failed, data_sent, data_received) cross from the VU thread to the
// main thread as one record with its values in a flat array, not as eleven
// samples: thousands of requests a second cross, and the structured clone of
// eleven objects costs both threads several times that of one. The main
// thread expands the record into the samples k6 would have emitted, in
// k6's order, before anything counts them. One module packs and expands, so
// both sides agree on the order.

/** @typedef {import('./vu-state.js').Sample} Sample */

const TRENDS = [
  'http_req_duration',
  'http_req_blocked',
  'http_req_connecting',
  'http_req_tls_handshaking',
  'http_req_sending',
  'http_req_waiting',
  'http_req_receiving',
];

/**
 * @typedef {object} RequestRecord
 * @property {'request'} type
 * @property {Record<string, string>} tags the request's kept tags
 * @property {number} at milliseconds since the epoch
 * @property {number[]} values the seven timings (TRENDS' order), bytes sent, bytes received
 * @property {0 | 1 | null} failed http_req_failed's value; null without a response callback
 */

/**
 * @param {Record<string, string>} tags
 * @param {number[]} timings duration, blocked, connecting, tls_handshaking, sending, waiting, receiving
 * @param {number} sent
 * @param {number} received
 * @param {0 | 1 | null} failed
 * @returns {RequestRecord}
 */
export function requestRecord(tags, timings, sent, received, failed) {
  return { type: 'request', tags, at: Date.now(), values: [...timings, sent, received], failed };
}

/**
 * The samples of a batch as k6 emits them, request records expanded.
 * @param {Array<Sample | RequestRecord>} batch
 * @returns {Sample[]}
 */
export function expandSamples(batch) {
  if (!batch.some((s) => s.type === 'request')) return /** @type {Sample[]} */ (batch);
  /** @type {Sample[]} */
  const out = [];
  for (const s of batch) {
    if (s.type !== 'request') {
      out.push(/** @type {Sample} */ (s));
      continue;
    }
    const { tags, at, values, failed } = /** @type {RequestRecord} */ (s);
    out.push({ metric: 'http_reqs', type: 'counter', time: false, value: 1, tags, at });
    for (let i = 0; i < TRENDS.length; i++)
      out.push({
        metric: /** @type {string} */ (TRENDS[i]),
        type: 'trend',
        time: true,
        value: /** @type {number} */ (values[i]),
        tags,
        at,
      });
    if (failed !== null) out.push({ metric: 'http_req_failed', type: 'rate', time: false, value: failed, tags, at });
    out.push({ metric: 'data_sent', type: 'counter', time: false, value: /** @type {number} */ (values[7]), tags, at });
    out.push({ metric: 'data_received', type: 'counter', time: false, value: /** @type {number} */ (values[8]), tags, at });
  }
  return out;
}
