// The parts of a distributed run put the plan's rate on the target only
// while they run side by side. A merge whose parts began their load apart
// (one after the other, or one started late) says so, leaves unjudged the
// thresholds measured in the arrival-rate phases, and still judges
// correctness: a slow latency there is no failure of the registry, a
// failed check still is. (These parts carry no audit, so no verdict here is
// a pass: the reasons say what was judged.) Parts that do not record when their load began leave
// the same thresholds unjudged.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import type { MetricPoint } from '../../histograms/k6-json-output.ts';
import type { ProfileIdentity } from '../../histograms/run-histograms.ts';
import { mergeRuns } from '../merge-runs.ts';
import { equalSegments, histogramsOf, identity, PROFILE, tempDir, writePart } from './synthetic-run.ts';

const SLOW_ROUTES = 'http_req_duration{phase:sustained_routes,operation:resolve}';
const BASE: ProfileIdentity = {
  ...PROFILE,
  duration_s: 60,
  phases: [{ name: 'seed' }, { name: 'sustained_routes' }],
  thresholds: [
    { id: 'route_p99', label: 'route p99', metric: SLOW_ROUTES, expression: 'p(99)<=50', unit: 'ms' },
    { id: 'unexpected', label: 'unexpected', metric: 'fleetproof_unexpected_responses', expression: 'count==0', unit: 'responses' },
  ],
};

/** A part's sustained routes: every resolve 200 ms, above the profile's p99; `failed` checks fail. */
function partPoints(from: number, failed: number): MetricPoint[] {
  const tags = { phase: 'sustained_routes', scenario: 'sustained_routes' };
  const points: MetricPoint[] = [];
  for (let i = 0; i < 20; i++) {
    points.push({ metric: 'http_req_duration', value: 200, tags: { ...tags, operation: 'resolve' }, timeMs: from + i });
    points.push({ metric: 'http_reqs', value: 1, tags: { ...tags, operation: 'resolve' }, timeMs: from + i });
    points.push({ metric: 'checks', value: i < failed ? 0 : 1, tags: { ...tags, check: 'routed' }, timeMs: from + i });
  }
  return points;
}

let n = 0;
/** Two parts whose loads began at the given offsets (ms; null: not recorded). */
async function merged(dir: string, startsMs: (number | null)[], failed = 0) {
  const segments = equalSegments(2);
  const dirs: string[] = [];
  for (const [k, offset] of startsMs.entries()) {
    const begin = Date.parse('2026-01-01T00:00:00.000Z') + (offset ?? 0);
    const run = identity({
      profile: BASE,
      execution_segment: segments[k]!,
      load_started_at: offset === null ? null : new Date(begin).toISOString(),
    });
    dirs.push(await writePart(join(dir, `part-${n++}`), histogramsOf(partPoints(begin, k === 0 ? failed : 0), run)));
  }
  const outcome = await mergeRuns({ dirs, outDir: join(dir, `out-${n++}`) });
  assert.ok(outcome.report, outcome.message);
  return outcome.report;
}

const row = (r: Awaited<ReturnType<typeof merged>>, id: string) => r.thresholds.find((t) => t.id === id)!;
const APART = /^the parts did not run side by side as the plan schedules them: their loads began 60\.0 s apart/;

test('parts whose loads began together are judged on every threshold', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const r = await merged(dir, [0, 1000]);
  assert.deepEqual([r.merge.overlap.as_scheduled, r.merge.overlap.spread_ms], [true, 1000]);
  assert.equal(row(r, 'route_p99').not_judged, undefined);
  assert.ok(r.reasons.includes(`threshold route p99 (${SLOW_ROUTES} p(99)<=50) failed with 200`), r.reasons.join('\n'));
  assert.ok(!r.merge.notes.some((x) => APART.test(x)));
});

test('parts run one after the other leave the combined-rate thresholds unjudged, and still fail a failed check', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const apart = await merged(dir, [0, 60_000]);
  assert.deepEqual([apart.merge.overlap.as_scheduled, apart.merge.overlap.spread_ms], [false, 60_000]);
  assert.ok(
    apart.merge.notes.some((x) => APART.test(x)),
    apart.merge.notes.join('\n'),
  );
  assert.match(row(apart, 'route_p99').not_judged ?? '', /^not judged: the parts did not run side by side/);
  assert.equal(row(apart, 'unexpected').not_judged, undefined, 'a count of unexpected responses holds at any rate');
  assert.ok(!apart.reasons.some((x) => x.includes('failed with')), apart.reasons.join('\n'));
  assert.ok(apart.could_not_judge.some((x) => x.startsWith('threshold route p99')));

  const broken = await merged(dir, [0, 60_000], 3);
  assert.ok(broken.reasons.includes('phase sustained_routes: 3 of 40 checks failed'), broken.reasons.join('\n'));
});

test('a part that does not record when its load began leaves the combined-rate thresholds unjudged', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const r = await merged(dir, [0, null]);
  assert.equal(r.merge.overlap.as_scheduled, null);
  assert.match(row(r, 'route_p99').not_judged ?? '', /is not known/);
  assert.ok(r.merge.notes.some((x) => x.includes('whether the parts ran side by side is not known')));
  assert.ok(!r.reasons.some((x) => x.includes('failed with')), r.reasons.join('\n'));
});
