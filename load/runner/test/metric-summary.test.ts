// The end-of-test table from raw points: counts, rates per second of the
// test, k6's interpolated percentiles for trends, the non-zero share of rates.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MetricSummarySink } from '../metric-summary.ts';

test('summarizes trends, rates and counters as k6 does', () => {
  const sink = new MetricSummarySink();
  sink.declare({ name: 'http_req_duration', type: 'trend', contains: 'time' });
  sink.declare({ name: 'http_req_failed', type: 'rate', contains: 'default' });
  sink.declare({ name: 'http_reqs', type: 'counter', contains: 'default' });
  sink.declare({ name: 'unused', type: 'gauge', contains: 'default' });
  for (let i = 1; i <= 101; i++) {
    sink.point({ metric: 'http_req_duration', value: i, tags: { phase: i % 2 ? 'a' : 'b' }, timeMs: i * 100 });
    sink.point({ metric: 'http_req_failed', value: i % 10 === 0 ? 1 : 0, tags: {}, timeMs: i * 100 });
    sink.point({ metric: 'http_reqs', value: 1, tags: {}, timeMs: i * 100 });
  }
  const rows = sink.rows(20_000);
  assert.deepEqual(
    rows.map((r) => r.metric),
    ['http_req_duration', 'http_req_failed', 'http_reqs'],
    'metrics without points are left out',
  );
  const [trend, rate, counter] = rows;
  // Rank p/100 × (n − 1) over 1..101: p50 is 51, p90 91, p99 100.
  assert.deepEqual([trend!.count, trend!.p50, trend!.p90, trend!.p95, trend!.p99, trend!.min, trend!.max], [101, 51, 91, 96, 100, 1, 101]);
  assert.equal(rate!.ratio, 10 / 101);
  assert.equal(counter!.per_second, 101 / 20);
  assert.equal(trend!.contains, 'time', 'a time trend says so, for its unit');
});
