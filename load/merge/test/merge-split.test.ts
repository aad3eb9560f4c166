// One run's points split into execution segments and merged back: every
// percentile, aggregate and threshold verdict equals the unsplit run's, for
// 2, 3 and 4 segments, split evenly, at random and skewed. Averaging the
// segments' percentiles — what merging summaries amounts to — gives another
// answer and another verdict on a skewed split.
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { percentile } from '../../runner/node-engine/metrics.ts';
import { evaluateThreshold, selectSeries, trendStats } from '../../runner/evaluate.ts';
import type { MetricPoint } from '../../histograms/k6-json-output.ts';
import { checkParts, evaluateRun, mergeParts, mergeRuns, type MergedReport } from '../merge-runs.ts';
import type { RunHistograms, RunHistogramsJson } from '../../histograms/run-histograms.ts';
import { writeMergedReport } from '../../../reports/load/write-merged-report.ts';
import { readRunPart } from '../run-part.ts';
import { equalSegments, histogramsOf, identity, prng, split, syntheticPoints, tempDir, writePart } from './synthetic-run.ts';

const ROUTES = 'http_req_duration{phase:routes,operation:resolve}';

/** The metrics of a histograms document without the sums' partials, whose form (not value) depends on order. */
function metricsOf(h: RunHistograms): RunHistogramsJson['metrics'] {
  const m = h.toJSON().metrics;
  for (const metric of Object.values(m)) for (const s of metric.series) s.sum_partials = [];
  return m;
}

async function mergedFrom(dir: string, parts: MetricPoint[][], segments: string[]): Promise<RunHistograms> {
  const read = [];
  for (const [k, points] of parts.entries()) {
    const partDir = await writePart(join(dir, `part-${k}`), histogramsOf(points, identity({ execution_segment: segments[k]! })));
    read.push(await readRunPart(partDir));
  }
  return mergeParts(read, checkParts(read));
}

test('merged percentiles, aggregates and thresholds equal the unsplit run, for 2, 3 and 4 segments', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const points = syntheticPoints();
  const whole = histogramsOf(points, identity());
  const expected = evaluateRun(whole);
  assert.equal(selectSeries(whole, ROUTES)!.histogram!.mode, 'log-linear', 'the route latencies are past exact mode');
  assert.equal(selectSeries(whole, 'http_req_duration{phase:catalog}')!.histogram!.mode, 'exact');
  assert.ok(expected.thresholds.some((x) => x.ok) && expected.thresholds.some((x) => !x.ok), 'some thresholds hold, some fail');

  const rnd = prng(11);
  const routeValues = points
    .filter((p) => p.metric === 'http_req_duration')
    .map((p) => p.value)
    .sort((a, b) => a - b);
  const p90 = percentile(routeValues, 90);
  const splits: [string, (n: number) => (p: MetricPoint, i: number) => number][] = [
    ['round robin', (n) => (_p, i) => i % n],
    ['at random', (n) => () => Math.floor(rnd() * n)],
    ['in time order', (n) => (_p, i) => Math.floor((i * n) / points.length)],
    // The slowest tenth of the requests all on the last instance.
    ['skewed', (n) => (p, i) => (p.metric === 'http_req_duration' && p.value > p90 ? n - 1 : i % Math.max(1, n - 1))],
  ];
  let k = 0;
  for (const n of [2, 3, 4]) {
    for (const [how, assign] of splits) {
      const merged = await mergedFrom(join(dir, `split-${k++}`), split(points, n, assign(n)), equalSegments(n));
      assert.deepEqual(metricsOf(merged), metricsOf(whole), `${n} segments ${how}: the same histograms`);
      assert.deepEqual(evaluateRun(merged), expected, `${n} segments ${how}: the same values and verdicts`);
      assert.deepEqual(trendStats(selectSeries(merged, ROUTES)!), trendStats(selectSeries(whole, ROUTES)!));
      assert.equal(merged.run.execution_segment, '0:1');
    }
  }
});

test('averaging the segments’ p99 gives another value and verdict on a skewed split; merging does not', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const points = syntheticPoints(21, 6000);
  const whole = histogramsOf(points, identity());
  const trueP99 = evaluateThreshold(whole, ROUTES, 'p(99)<1', 60_000).value!;
  // One instance met a slow path: its share of the routes holds the slowest fifth.
  const routeValues = points
    .filter((p) => p.metric === 'http_req_duration' && p.tags['operation'] === 'resolve')
    .map((p) => p.value)
    .sort((a, b) => a - b);
  const cut = percentile(routeValues, 80);
  const parts = split(points, 2, (p) => (p.metric === 'http_req_duration' && p.tags['operation'] === 'resolve' && p.value > cut ? 1 : 0));
  const perPart = parts.map((pts) => evaluateThreshold(histogramsOf(pts, identity()), ROUTES, 'p(99)<1', 60_000).value!);
  const averaged = (perPart[0]! + perPart[1]!) / 2;
  const merged = await mergedFrom(dir, parts, equalSegments(2));
  const mergedP99 = evaluateThreshold(merged, ROUTES, 'p(99)<1', 60_000).value!;

  assert.equal(mergedP99, trueP99, 'the merge gives the unsplit p99');
  assert.ok(Math.abs(averaged - trueP99) > 0.1 * trueP99, `averaging gives ${averaged} for a p99 of ${trueP99}`);
  // A limit between the two: the true p99 and the averaged one get opposite verdicts.
  const limit = (averaged + trueP99) / 2;
  const onMerged = evaluateThreshold(merged, ROUTES, `p(99)<=${limit}`, 60_000).ok;
  assert.equal(onMerged, evaluateThreshold(whole, ROUTES, `p(99)<=${limit}`, 60_000).ok);
  assert.notEqual(onMerged, averaged <= limit, 'averaging would have given the other verdict');
});

test('report --merge writes one report, evaluated once, with the parts and their segments', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const points = syntheticPoints(5, 3000);
  const segments = ['0:1/4', '1/4:3/4', '3/4:1'];
  const dirs: string[] = [];
  for (const [k, pts] of split(points, 3, (_p, i) => i % 3).entries()) {
    dirs.push(
      await writePart(
        join(dir, `instance-${k}`),
        histogramsOf(pts, identity({ execution_segment: segments[k]!, engine: { name: 'k6', version: 'v1.0.0' } })),
      ),
    );
  }
  const out = join(dir, 'merged');
  const outcome = await mergeRuns({ dirs, outDir: out, writeReport: writeMergedReport });
  const expected = evaluateRun(histogramsOf(points, identity()));
  const report = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as MergedReport;
  assert.deepEqual(
    report.thresholds.map((x) => [x.id, x.ok, x.value]),
    expected.thresholds.map((x) => [x.id, x.ok, x.value]),
  );
  assert.equal(report.merge.coverage, '1');
  assert.equal(report.merge.execution_segment, '0:1');
  assert.deepEqual(
    report.merge.parts.map((p) => p.execution_segment),
    segments,
  );
  assert.ok(report.reasons.includes('the audit did not run'), 'no part was audited');
  assert.deepEqual([outcome.exitCode, report.verdict], [2, 'could-not-judge'], 'an unaudited run judges nothing');
  const html = await readFile(join(out, 'report.html'), 'utf8');
  assert.match(html, /<h2>Distributed run<\/h2>/);
  assert.match(html, /3 part\(s\) merged/);
  assert.doesNotMatch(html, /<script|<link|src=/, 'the page needs nothing from the network');
  assert.match(await readFile(join(out, 'report.md'), 'utf8'), /## Distributed run[\s\S]*## SLOs against the results/);
  // The merged histograms are themselves a part: merging them alone gives the same verdicts.
  const again = await mergeRuns({ dirs: [out], outDir: join(dir, 'again') });
  assert.deepEqual(again.report!.thresholds, report.thresholds);
});
