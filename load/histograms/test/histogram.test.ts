// The histogram scheme: buckets ordered as their values, quantiles within
// the documented bound of k6's exact ones, exact mode equal to them, the
// same histogram however the values are split, and an order-free exact sum.
// Also the k6 JSON output reader on k6's own line forms, gzipped.
import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { percentile } from '../../runner/node-engine/metrics.ts';
import { bucketOf, bucketValue, EXACT_MAX_DISTINCT, ExactSum, RELATIVE_ERROR, ValueHistogram } from '../histogram.ts';
import { parseRfc3339Ms, readMetricOutput, type MetricDeclaration, type MetricPoint } from '../k6-json-output.ts';
import { prng, tempDir } from '../../merge/test/synthetic-run.ts';

const PCTS = [0, 1, 10, 25, 50, 75, 90, 95, 99, 99.9, 100];

function histogramOf(values: number[]): { h: ValueHistogram; min: number; max: number } {
  const h = new ValueHistogram();
  for (const v of values) h.add(v);
  return { h, min: Math.min(...values), max: Math.max(...values) };
}

test('buckets are ordered as their values and each stands for a value within the relative bound', () => {
  const rnd = prng(1);
  const values = [0, -0, 1e-300, 5e-324, 1, 2, 3, 0.001, 1e6, -1, -2.5, -1e-9, 123.456];
  for (let i = 0; i < 2000; i++) values.push((rnd() - 0.3) * 10 ** Math.floor(rnd() * 12 - 4));
  const sorted = [...values].sort((a, b) => a - b);
  for (let i = 1; i < sorted.length; i++) assert.ok(bucketOf(sorted[i - 1]!) <= bucketOf(sorted[i]!), `${sorted[i - 1]} ≤ ${sorted[i]}`);
  for (const v of values) {
    if (Math.abs(v) < 2 ** -1032) assert.equal(bucketValue(bucketOf(v)), 0);
    else assert.ok(Math.abs(bucketValue(bucketOf(v)) - v) <= Math.abs(v) * RELATIVE_ERROR, `${v} reads as ${bucketValue(bucketOf(v))}`);
  }
});

test("exact mode gives k6's percentiles; past it, quantiles stay within 2^-11 of them", () => {
  const rnd = prng(2);
  const few = Array.from({ length: 500 }, () => Math.round(rnd() * 1e6) / 1000);
  const exact = histogramOf(few);
  assert.equal(exact.h.mode, 'exact');
  const sortedFew = [...few].sort((a, b) => a - b);
  for (const p of PCTS) assert.equal(exact.h.percentile(p, exact.min, exact.max), percentile(sortedFew, p));

  const many = Array.from({ length: 50_000 }, () => Math.exp(1 + 1.5 * rnd()) + (rnd() < 0.01 ? 500 * rnd() : 0));
  const bucketed = histogramOf(many);
  assert.equal(bucketed.h.mode, 'log-linear');
  const sortedMany = [...many].sort((a, b) => a - b);
  for (const p of PCTS) {
    const want = percentile(sortedMany, p);
    const got = bucketed.h.percentile(p, bucketed.min, bucketed.max);
    assert.ok(Math.abs(got - want) <= want * RELATIVE_ERROR, `p(${p}): ${got} vs exact ${want}`);
  }
});

test('the histogram is a function of the values alone: any split, merged back, is the same', () => {
  const rnd = prng(3);
  for (const n of [EXACT_MAX_DISTINCT - 10, EXACT_MAX_DISTINCT + 10, 20_000]) {
    const values = Array.from({ length: n }, () => Math.exp(3 * rnd()));
    const whole = histogramOf(values).h.toJSON();
    for (const parts of [2, 3, 4]) {
      const hs = Array.from({ length: parts }, () => new ValueHistogram());
      values.forEach((v) => hs[Math.floor(rnd() * parts)]!.add(v));
      const merged = new ValueHistogram();
      for (const h of hs) merged.merge(ValueHistogram.fromJSON(JSON.parse(JSON.stringify(h.toJSON()))));
      assert.deepEqual(merged.toJSON(), whole, `${n} values in ${parts} parts`);
    }
  }
});

test('the exact sum does not depend on order or split', () => {
  const rnd = prng(4);
  const values = Array.from({ length: 10_000 }, () => (rnd() - 0.5) * 10 ** Math.floor(rnd() * 20 - 10));
  const forward = new ExactSum();
  values.forEach((v) => forward.add(v));
  const backward = new ExactSum();
  [...values].reverse().forEach((v) => backward.add(v));
  const a = new ExactSum();
  const b = new ExactSum();
  values.forEach((v, i) => (i % 3 === 0 ? a : b).add(v));
  a.merge(ExactSum.of(b.partials));
  assert.equal(forward.value(), backward.value());
  assert.equal(a.value(), forward.value());
  const naive = values.reduce((s, v) => s + v, 0);
  assert.ok(Math.abs(naive - forward.value()) <= Math.abs(forward.value()) * 1e-9 + 1e-12);
  const tricky = ExactSum.of([1e16, 1, -1e16]);
  assert.equal(tricky.value(), 1);
});

test("k6's JSON output is read line by line, with nanosecond times, null tags and gzip", async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const lines = [
    '{"type":"Metric","data":{"name":"vus","type":"gauge","contains":"default","tainted":null,"thresholds":[],"submetrics":null},"metric":"vus"}',
    '{"type":"Point","data":{"time":"2017-05-09T14:34:45.625742514+02:00","value":5,"tags":null},"metric":"vus"}',
    '{"metric":"http_req_duration","type":"Metric","data":{"name":"http_req_duration","type":"trend","contains":"time","thresholds":["avg<1000"],"submetrics":null}}',
    '{"metric":"http_req_duration","type":"Point","data":{"time":"2017-05-09T14:34:45.239531499+02:00","value":459.865729,"tags":{"group":"::my group::json","method":"GET","status":"200"}}}',
    '',
  ];
  const path = join(dir, 'metrics.ndjson.gz');
  await writeFile(path, gzipSync(lines.join('\n')));
  const declared: MetricDeclaration[] = [];
  const points: MetricPoint[] = [];
  const read = await readMetricOutput(path, { declare: (d) => declared.push(d), point: (p) => points.push(p) });
  assert.equal(read.lines, 4);
  assert.deepEqual(declared, [
    { name: 'vus', type: 'gauge', contains: 'default' },
    { name: 'http_req_duration', type: 'trend', contains: 'time' },
  ]);
  assert.equal(points.length, 2);
  assert.deepEqual(points[0]!.tags, {});
  assert.equal(points[1]!.value, 459.865729);
  assert.equal(points[1]!.tags['group'], '::my group::json');
  assert.ok(Math.abs(points[1]!.timeMs - (Date.UTC(2017, 4, 9, 12, 34, 45) + 239.531499)) < 1e-3);
  assert.ok(parseRfc3339Ms('2017-05-09T14:34:45.625742514+02:00') > parseRfc3339Ms('2017-05-09T14:34:45.625742+02:00'));
  await writeFile(join(dir, 'bad.ndjson'), '{"type":"Point","data":{"time":"x","value":1},"metric":"m"}\n');
  await assert.rejects(readMetricOutput(join(dir, 'bad.ndjson'), { declare() {}, point() {} }), /line 1: point of m has no RFC 3339 time/);
});
