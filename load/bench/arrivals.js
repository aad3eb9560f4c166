// bench:load's script: one GET /version per arrival at a constant rate, from
// an async function, the same file for the Node runner and k6, so the two
// are compared on one target.
import http from 'k6/http';

export const options = {
  scenarios: {
    arrivals: {
      executor: 'constant-arrival-rate',
      rate: Number(__ENV.RATE),
      timeUnit: '1s',
      duration: `${__ENV.DURATION_S}s`,
      preAllocatedVUs: Number(__ENV.VUS),
      maxVUs: Number(__ENV.VUS),
      gracefulStop: '2s',
    },
  },
  summaryTrendStats: ['avg', 'p(99)'],
};

export default async function () {
  await http.asyncRequest('GET', `${__ENV.TARGET}/version`);
}

/** @param {any} data */
export function handleSummary(data) {
  /** @param {string} name */
  const count = (name) => (data.metrics[name] ? data.metrics[name].values.count : 0);
  const summary = {
    requests: count('http_reqs'),
    iterations: count('iterations'),
    dropped: count('dropped_iterations'),
    test_ms: data.state.testRunDurationMs,
    p99_ms: data.metrics.http_req_duration ? data.metrics.http_req_duration.values['p(99)'] : null,
  };
  return { [String(__ENV.SUMMARY)]: JSON.stringify(summary) };
}
