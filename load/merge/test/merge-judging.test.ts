// A merged run is judged by its profile's own rules, as each part would be
// alone: a phase cut at its budget in a profile whose budgets only bound the
// run (smoke) leaves the run unjudged instead of failing the registry, and
// the arrivals every part's generator could not start in an arrival-rate
// phase count against the profile's allowance, so a distributed run that did
// not keep its rate says so. Parts written before they recorded these
// settings are judged by the contract's profile of their name.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import type { MetricPoint } from '../../histograms/k6-json-output.ts';
import type { ProfileIdentity } from '../../histograms/run-histograms.ts';
import { mergeRuns } from '../merge-runs.ts';
import { equalSegments, histogramsOf, identity, PROFILE, split, syntheticPoints, tempDir, writePart } from './synthetic-run.ts';

/** Without thresholds, so only the phases and the generator decide: a budgeted phase and an arrival-rate one. */
const BASE: ProfileIdentity = {
  ...PROFILE,
  thresholds: [],
  phases: [{ name: 'seed' }, { name: 'routes', budget_s: 30 }, { name: 'sustained_routes' }],
};

/** The sustained phase's requests and checks, and the arrivals its scenario could not start. */
function sustainedPoints(from: number, dropped: number): MetricPoint[] {
  const tags = { phase: 'sustained_routes', scenario: 'sustained_routes' };
  const points: MetricPoint[] = [];
  for (let i = 0; i < 20; i++) {
    points.push({ metric: 'http_reqs', value: 1, tags: { ...tags, operation: 'resolve' }, timeMs: from + i });
    points.push({ metric: 'checks', value: 1, tags: { ...tags, check: 'routed' }, timeMs: from + i });
  }
  points.push({ metric: 'dropped_iterations', value: dropped, tags: { scenario: 'sustained_routes' }, timeMs: from + 20 });
  return points;
}

let n = 0;
/** Two parts of one run, each dropping `droppedPerPart` arrivals; no part has a journal, so no budgeted phase finished in time. */
async function merged(dir: string, profiles: [ProfileIdentity, ProfileIdentity], droppedPerPart: number) {
  const segments = equalSegments(2);
  const dirs: string[] = [];
  for (const [k, points] of split(syntheticPoints(5, 400), 2, (_p, i) => i % 2).entries()) {
    const h = histogramsOf(
      [...points, ...sustainedPoints(points.at(-1)!.timeMs + 1, droppedPerPart)],
      identity({ profile: profiles[k]!, execution_segment: segments[k]! }),
    );
    dirs.push(await writePart(join(dir, `part-${n++}`), h));
  }
  const outcome = await mergeRuns({ dirs, outDir: join(dir, `out-${n++}`) });
  assert.ok(outcome.report, outcome.message);
  return outcome.report;
}

const phase = (r: Awaited<ReturnType<typeof merged>>, name: string) => r.phases.find((p) => p.name === name);
const CUT = 'phase routes: interrupted, not finished within its 30 s budget';

test('a merged run judges its cut phases and dropped arrivals by its profile', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  const both = (p: ProfileIdentity): [ProfileIdentity, ProfileIdentity] => [p, p];

  // Budgets that judge speed: the cut is the registry's failure; ten arrivals dropped are within an allowance of 20.
  const judged = await merged(dir, both({ ...BASE, max_dropped_iterations: 20, budgets_judge_speed: true }), 5);
  assert.deepEqual(
    [phase(judged, 'routes')?.status, phase(judged, 'sustained_routes')?.status, phase(judged, 'sustained_routes')?.dropped_iterations],
    ['fail', 'pass', 10],
  );
  assert.ok(judged.reasons.includes(CUT), judged.reasons.join('\n'));
  assert.deepEqual(
    judged.could_not_judge.filter((r) => /^(phase routes|phase sustained_routes|could not judge at this rate)\b/.test(r)),
    [],
  );

  // Budgets that only bound the run (smoke): the cut shows the machine, so the run could not judge it.
  const bounded = await merged(dir, both({ ...BASE, max_dropped_iterations: 20, budgets_judge_speed: false }), 5);
  assert.equal(phase(bounded, 'routes')?.status, 'error');
  assert.ok(
    bounded.could_not_judge.some((r) => r.startsWith(`${CUT}, which in this profile only bounds the run`)),
    bounded.could_not_judge.join('\n'),
  );
  assert.ok(!bounded.reasons.includes(CUT), 'a bounding budget fails nothing');

  // An allowance of 4: the generators did not keep the rate, and the run says so.
  const strict = await merged(dir, both({ ...BASE, max_dropped_iterations: 4, budgets_judge_speed: true }), 5);
  assert.equal(phase(strict, 'sustained_routes')?.status, 'error');
  assert.ok(
    strict.could_not_judge.some((r) =>
      /^could not judge at this rate: the load generator could not start 10 iteration\(s\) \(sustained_routes 10; the profile allows 4\)/.test(
        r,
      ),
    ),
    strict.could_not_judge.join('\n'),
  );
});

test('parts that do not record how their profile judges are judged by the contract, and merge with parts that do', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  // The contract's smoke: budgets that only bound the run, 20 arrivals allowed.
  const recorded: ProfileIdentity = { ...BASE, name: 'smoke', max_dropped_iterations: 20, budgets_judge_speed: false };
  const { max_dropped_iterations: _m, budgets_judge_speed: _b, ...unrecorded } = recorded;
  const r = await merged(dir, [recorded, unrecorded], 8);
  assert.equal(phase(r, 'routes')?.status, 'error');
  assert.ok(!r.reasons.includes(CUT));
  assert.equal(phase(r, 'sustained_routes')?.dropped_iterations, 16);
  assert.ok(!r.could_not_judge.some((x) => x.startsWith('could not judge at this rate')), r.could_not_judge.join('\n'));
});
