// One HTTP request's k6 metrics, in k6's order: http_reqs, the seven timing
// trends, http_req_failed (when a response callback judges the answer),
// data_sent and data_received, all with the request's tags.

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
 * @param {Record<string, string>} tags the request's kept tags
 * @param {number[]} timings duration, blocked, connecting, tls_handshaking, sending, waiting, receiving
 * @param {number} sent
 * @param {number} received
 * @param {0 | 1 | null} failed http_req_failed's value; null without a response callback
 * @returns {Sample[]}
 */
export function requestSamples(tags, timings, sent, received, failed) {
  const at = Date.now();
  /** @type {Sample[]} */
  const out = [{ metric: 'http_reqs', type: 'counter', time: false, value: 1, tags, at }];
  for (let i = 0; i < TRENDS.length; i++)
    out.push({ metric: /** @type {string} */ (TRENDS[i]), type: 'trend', time: true, value: /** @type {number} */ (timings[i]), tags, at });
  if (failed !== null) out.push({ metric: 'http_req_failed', type: 'rate', time: false, value: failed, tags, at });
  out.push({ metric: 'data_sent', type: 'counter', time: false, value: sent, tags, at });
  out.push({ metric: 'data_received', type: 'counter', time: false, value: received, tags, at });
  return out;
}
