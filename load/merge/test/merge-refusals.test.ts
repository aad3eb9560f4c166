// Inputs that are not the parts of one run are refused with exit 2 and a
// reason: other profiles, settings, contract versions or runs, a directory
// or an instance given twice, execution segments that overlap, belong to
// another split or leave part of the test out, a directory holding no results.
import assert from 'node:assert/strict';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { main } from '../../../cli/main.ts';
import { mergeRuns } from '../merge-runs.ts';
import type { RunIdentity } from '../../histograms/run-histograms.ts';
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

  await refused(
    await part(b, { execution_segment: '1/2:1', profile: { ...PROFILE, name: 'other' } }),
    /ran profile other, .* ran synthetic: different profiles do not merge/,
  );
  await refused(
    await part(b, { execution_segment: '1/2:1', profile: { ...PROFILE, format: 'fleetproof-scale/v2' } }),
    /different contract versions do not merge/,
  );
  await refused(
    await part(b, { execution_segment: '1/2:1', profile: { ...PROFILE, dataset: { tenants: 8 } } }),
    /with different settings \(dataset\)/,
  );
  await refused(
    await part(b, { execution_segment: '1/2:1', profile: { ...PROFILE, budgets_judge_speed: false } }),
    /with different settings \(budgets_judge_speed\)/,
  );
  await refused(
    await part(b, { execution_segment: '1/2:1', profile: { ...PROFILE, max_dropped_iterations: 3 } }),
    /with different settings \(max_dropped_iterations\)/,
  );
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
  await refused(await part(b, { execution_segment: '1/2:1', execution_segment_sequence: 'x' }), /is not a fraction/);

  // k6's raw output needs the script's summary to say whose it is, and must be well formed.
  const raw = join(dir, 'raw');
  await mkdir(raw);
  await writeFile(
    join(raw, 'metrics.ndjson'),
    '{"type":"Point","data":{"time":"2026-01-01T00:00:00Z","value":1,"tags":{}},"metric":"http_reqs"}\n',
  );
  await refused(raw, /metrics.ndjson without the script's summary/);
  const summary = {
    format: 'fleetproof-load-summary/v1',
    run_id: 'run-synthetic',
    target: 'http://127.0.0.1:1',
    profile: { name: PROFILE.name, format: PROFILE.format, duration_s: 60, phases: PROFILE.phases },
    dataset: PROFILE.dataset,
    thresholds: PROFILE.thresholds,
    test_run_duration_ms: 60_000,
  };
  await writeFile(join(raw, 'engine-summary.json'), JSON.stringify(summary));
  await refused(raw, /metrics.ndjson line 1: a point of http_reqs before its Metric line/);

  // The command line says the same and exits 2.
  assert.equal(await main(['report', '--merge', first, first, '--out', join(dir, 'cli')]), 2);
  assert.equal(await main(['report', '--merge']), 2);
  assert.equal(await main(['report', first]), 2);
});

test('segments that leave part of the test out or come from another split are refused, and the message says which', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const [a, b, c] = split(syntheticPoints(4, 300), 3, (_p, i) => i % 3);
  let n = 0;
  const part = (points: typeof a, over: Partial<RunIdentity>) => writePart(join(dir, `p${n++}`), histogramsOf(points!, identity(over)));
  const thirds = '0,1/3,2/3,1';
  const first = await part(a, { execution_segment: '0:1/3', execution_segment_sequence: thirds });
  const last = await part(c, { execution_segment: '2/3:1', execution_segment_sequence: thirds });
  const merge = (dirs: string[]) => mergeRuns({ dirs, outDir: join(dir, `out-${n++}`) });

  const missing = await merge([first, last]);
  assert.equal(missing.exitCode, 2, missing.message);
  assert.match(missing.message, /\(segments 0:1\/3, 2\/3:1\) leave 1\/3:2\/3 of the test out: a part is missing/);
  const halves = await part(b, { execution_segment: '1/3:2/3', execution_segment_sequence: '0,1/3,1/2,2/3,1' });
  const otherSplit = await merge([first, halves, last]);
  assert.equal(otherSplit.exitCode, 2);
  assert.match(
    otherSplit.message,
    /p\d was split by the sequence 0,1\/3,1\/2,2\/3,1, .* by 0,1\/3,2\/3,1: foreign segments of another split/,
  );
  const foreign = await part(b, { execution_segment: '1/3:1/2', execution_segment_sequence: null });
  const notInSequence = await merge([first, foreign, last]);
  assert.equal(notInSequence.exitCode, 2);
  assert.match(
    notInSequence.message,
    /ran segment 1\/3:1\/2, which is not a segment of the run's sequence 0,1\/3,2\/3,1: a foreign segment/,
  );

  const middle = await part(b, { execution_segment: '1/3:2/3', execution_segment_sequence: thirds });
  const whole = await merge([first, middle, last]);
  // Unaudited synthetic parts cannot pass; what matters is that no segment is refused.
  assert.ok(!whole.report!.reasons.some((r) => /segment|part is missing/.test(r)), whole.report!.reasons.join('\n'));
  assert.equal(whole.report!.merge.coverage, '1');
  assert.equal(whole.report!.merge.execution_segment, '0:1');
});
