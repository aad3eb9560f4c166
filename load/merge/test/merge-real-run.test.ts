// A real run — the smoke profile's seed, parallel catalog and concurrent
// routing phases on the Node runner against the in-process reference — has
// its k6 JSON output split into three instances' outputs, unevenly, as k6
// run directly (k6-operator) would leave them: metrics.ndjson and the
// script's summary (which says the instance's segment), the first with the
// run's report (its audit) and journal. `fleetproof report --merge` gives back the run's own histograms,
// percentiles and verdicts.
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { runLoad } from '../../runner/run-load.ts';
import { startEmbeddedReference } from '../../../reference/embedded-reference.ts';
import { main } from '../../../cli/main.ts';
import type { LoadReport } from '../../runner/load-report.ts';
import type { MergedReport } from '../merge-runs.ts';
import type { RunHistogramsJson } from '../../histograms/run-histograms.ts';
import { prng, tempDir } from './synthetic-run.ts';

const withoutPartials = (h: RunHistogramsJson) => {
  for (const m of Object.values(h.metrics)) for (const s of m.series) s.sum_partials = [];
  return h.metrics;
};

test("a real run split into three instances' outputs merges back to the run's own figures", async (t) => {
  const dir = await tempDir();
  const reference = await startEmbeddedReference();
  t.after(async () => {
    await reference.close();
    await rm(dir, { recursive: true, force: true });
  });
  const runDir = join(dir, 'run');
  const outcome = await runLoad({
    target: reference.url,
    keyPath: reference.signingKeyPath,
    profile: 'smoke',
    engine: 'node',
    phases: ['parallel_catalog', 'concurrent_routes'],
    outDir: runDir,
    quiet: true,
  });
  assert.equal(outcome.exitCode, 0, outcome.report?.reasons.join('\n'));

  const lines = (await readFile(join(runDir, 'metrics.ndjson'), 'utf8')).split('\n').filter(Boolean);
  const rnd = prng(9);
  const parts: string[][] = [[], [], []];
  for (const line of lines) {
    // Every instance declares the metrics; the points go 60/30/10.
    if (line.includes('"type":"Metric"')) parts.forEach((p) => p.push(line));
    else {
      const r = rnd();
      parts[r < 0.6 ? 0 : r < 0.9 ? 1 : 2]!.push(line);
    }
  }
  const dirs: string[] = [];
  const engineSummary = JSON.parse(await readFile(join(runDir, 'engine-summary.json'), 'utf8')) as Record<string, unknown>;
  const segments = ['0:3/5', '3/5:9/10', '9/10:1'];
  for (const [k, partLines] of parts.entries()) {
    const d = join(dir, `instance-${k}`);
    await mkdir(d);
    await writeFile(join(d, 'metrics.ndjson'), partLines.join('\n') + '\n');
    const summary = { ...engineSummary, execution_segment: segments[k], execution_segment_sequence: '0,3/5,9/10,1' };
    await writeFile(join(d, 'engine-summary.json'), JSON.stringify(summary));
    if (k === 0) {
      await copyFile(join(runDir, 'summary.json'), join(d, 'summary.json'));
      await copyFile(join(runDir, 'journal.ndjson'), join(d, 'journal.ndjson'));
    }
    dirs.push(d);
  }
  const out = join(dir, 'merged');
  assert.equal(await main(['report', '--merge', ...dirs, '--out', out]), 0);

  const own = JSON.parse(await readFile(join(runDir, 'summary.json'), 'utf8')) as LoadReport;
  const merged = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as MergedReport;
  assert.equal(merged.verdict, 'pass');
  assert.deepEqual(
    withoutPartials(JSON.parse(await readFile(join(out, 'histograms.json'), 'utf8'))),
    withoutPartials(JSON.parse(await readFile(join(runDir, 'histograms.json'), 'utf8'))),
  );
  // Every sub-metric here holds fewer than 1024 values, so the merged figures are the engine's own, exactly.
  assert.deepEqual(
    merged.thresholds.map((x) => [x.id, x.ok, x.value]),
    own.thresholds.map((x) => [x.id, x.ok, x.value]),
  );
  for (const [k, p] of own.phases.entries()) {
    const m = merged.phases[k]!;
    assert.deepEqual(
      [m.name, m.checks, m.checks_ok, m.requests, m.wall_ms, m.nearest_rank],
      [p.name, p.checks, p.checks_ok, p.requests, p.wall_ms, p.nearest_rank],
    );
    const { avg: mergedAvg, ...mergedRest } = m.latency_ms ?? {};
    const { avg: ownAvg, ...ownRest } = p.latency_ms ?? {};
    assert.deepEqual(mergedRest, ownRest, `${p.name}: percentiles, min, max, count`);
    // The engine sums naively, the histograms exactly: at most a rounding apart.
    if (ownAvg !== undefined) assert.ok(Math.abs(mergedAvg! - ownAvg) <= Math.abs(ownAvg) * 1e-12, `${p.name} avg`);
  }
  // The parts' raw points, read together, give the run over time and the end-of-test table of the whole run.
  assert.deepEqual(merged.over_time, own.over_time);
  assert.deepEqual(
    merged.metrics.map((m) => [m.metric, m.count, m.p95]),
    own.metrics.map((m) => [m.metric, m.count, m.p95]),
  );
  // Sums are added in another order: at most a rounding apart.
  for (const [k, m] of own.metrics.entries())
    assert.ok(Math.abs(merged.metrics[k]!.sum - m.sum) <= Math.abs(m.sum) * 1e-12, `${m.metric} sum`);
  assert.deepEqual(
    merged.merge.parts.map((p) => [p.source, p.audited]),
    [
      ['metrics.ndjson', true],
      ['metrics.ndjson', false],
      ['metrics.ndjson', false],
    ],
  );
  assert.deepEqual(
    merged.merge.parts.map((p) => p.execution_segment),
    segments,
    "the script's summary says each instance's segment",
  );
  assert.equal(merged.merge.coverage, '1');
  assert.ok(merged.audit!.invariants.every((i) => i.ok && i.checked > 0));
});
