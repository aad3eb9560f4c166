// Inputs that are not the parts of one run are refused with exit 2 and a
// reason: other profiles, settings, contract versions or runs, a directory
// or an instance given twice, overlapping execution segments, a directory
// holding no results. A missing segment is no refusal but fails the verdict.
import assert from 'node:assert/strict';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { main } from '../../../reference/cli/main.ts';
import { mergeRuns } from '../merge-runs.ts';
import type { RunIdentity } from '../run-histograms.ts';
import { histogramsOf, identity, PROFILE, split, syntheticPoints, tempDir, writePart } from './synthetic-run.ts';

test('inputs that are not the parts of one run are refused with exit 2', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const [a, b] = split(syntheticPoints(3, 200), 2, (_p, i) => i % 2);
  let n = 0;
  const part = (points: typeof a, over: Partial<RunIdentity>) => writePart(join(dir, `p${n++}`), histogramsOf(points!, identity(over)));
  const first = await part(a, { execution_segment: '0:1/2' });
  const refused = async (second: string, pattern: RegExp, dirs = [first, second]) => {
    const outcome = await mergeRuns({ dirs, outDir: join(dir, 'out') });
    assert.equal(outcome.exitCode, 2, `${pattern}: ${outcome.message}`);
    assert.match(outcome.message, pattern);
  };

  await refused(await part(b, { execution_segment: '1/2:1', profile: { ...PROFILE, name: 'other' } }), /ran profile other, .* ran synthetic: different profiles do not merge/);
  await refused(await part(b, { execution_segment: '1/2:1', profile: { ...PROFILE, format: 'fleetproof-scale/v2' } }), /different contract versions do not merge/);
  await refused(await part(b, { execution_segment: '1/2:1', profile: { ...PROFILE, dataset: { tenants: 8 } } }), /with different settings \(dataset\)/);
  await refused(await part(b, { execution_segment: '1/2:1', run_id: 'another-run' }), /only the parts of one run/);
  await refused(await part(b, { execution_segment: '1/3:1' }), /execution segments 0:1\/2 \(.*\) and 1\/3:1 \(.*\) overlap/);
  await refused(await part(b, { execution_segment: '0:1' }), /overlap/);
  await refused(first, /is given twice/);
  const copy = join(dir, 'copy');
  await cp(first, copy, { recursive: true });
  await refused(copy, /hold the same instance's results/);
  const empty = join(dir, 'empty');
  await mkdir(empty);
  await refused(empty, /holds neither histograms.json nor k6 JSON output/);
  await refused(join(dir, 'missing'), /no such directory/);
  await refused(await part(b, { execution_segment: '1/2:3/2' }), /not a range within 0:1/);

  // k6's raw output needs the script's summary to say whose it is, and must be well formed.
  const raw = join(dir, 'raw');
  await mkdir(raw);
  await writeFile(join(raw, 'metrics.ndjson'), '{"type":"Point","data":{"time":"2026-01-01T00:00:00Z","value":1,"tags":{}},"metric":"http_reqs"}\n');
  await refused(raw, /metrics.ndjson without the script's summary/);
  const summary = { format: 'fleetproof-load-summary/v1', run_id: 'run-synthetic', target: 'http://127.0.0.1:1', profile: { name: PROFILE.name, format: PROFILE.format, duration_s: 60, phases: PROFILE.phases }, dataset: PROFILE.dataset, thresholds: PROFILE.thresholds, test_run_duration_ms: 60_000 };
  await writeFile(join(raw, 'engine-summary.json'), JSON.stringify(summary));
  await refused(raw, /metrics.ndjson line 1: a point of http_reqs before its Metric line/);

  // The command line says the same and exits 2.
  assert.equal(await main(['report', '--merge', first, first, '--out', join(dir, 'cli')]), 2);
  assert.equal(await main(['report', '--merge']), 2);
  assert.equal(await main(['report', first]), 2);
});

test('a missing segment fails the merged verdict: the parts cover only part of the test', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const [a, b] = split(syntheticPoints(4, 200), 2, (_p, i) => i % 2);
  const dirs = [
    await writePart(join(dir, 'a'), histogramsOf(a!, identity({ execution_segment: '0:1/3' }))),
    await writePart(join(dir, 'b'), histogramsOf(b!, identity({ execution_segment: '2/3:1' }))),
  ];
  const outcome = await mergeRuns({ dirs, outDir: join(dir, 'out') });
  // Unaudited synthetic parts: no pass in any case, and exit 2 (could not judge) rather than a verdict.
  assert.notEqual(outcome.report!.verdict, 'pass');
  assert.equal(outcome.exitCode, 2);
  assert.ok(outcome.report!.reasons.includes('the parts cover 2/3 of the test (segments 0:1/3, 2/3:1): a part is missing'), outcome.report!.reasons.join('\n'));
  assert.equal(outcome.report!.merge.execution_segment, null);
});
