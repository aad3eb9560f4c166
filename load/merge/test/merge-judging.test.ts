// A merged run is judged by its profile's own rules, as each part would be
// alone: a phase cut at its budget in a profile whose budgets only bound the
// run (smoke) leaves the run unjudged instead of failing the registry, and
// the arrivals every part's generator could not start count against the
// profile's allowance, so a distributed run that did not keep its rate says so.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import type { MetricPoint } from '../../histograms/k6-json-output.ts';
import { dimensionsFor, RunHistograms, type ProfileIdentity } from '../../histograms/run-histograms.ts';
import { mergeRuns } from '../merge-runs.ts';
import { DECLARATIONS, equalSegments, identity, PROFILE, split, syntheticPoints, tempDir, writePart } from './synthetic-run.ts';

/** The synthetic profile without thresholds: only the phases and the generator decide. */
const BASE: ProfileIdentity = { ...PROFILE, thresholds: [] };

/** Two parts of one run, each dropping `droppedPerPart` arrivals of the routes scenario; no part has a journal, so no phase finished in time. */
async function merged(dir: string, profile: ProfileIdentity, droppedPerPart: number) {
  const segments = equalSegments(2);
  const dirs: string[] = [];
  for (const [k, points] of split(syntheticPoints(5, 400), 2, (_p, i) => i % 2).entries()) {
    const run = identity({ profile, execution_segment: segments[k]! });
    const h = new RunHistograms(run, dimensionsFor([]));
    for (const d of [...DECLARATIONS, { name: 'dropped_iterations', type: 'counter', contains: 'default' } as const]) h.declare(d);
    const last = points.at(-1)!.timeMs;
    const dropped: MetricPoint = { metric: 'dropped_iterations', value: droppedPerPart, tags: { scenario: 'routes' }, timeMs: last + 1 };
    for (const p of [...points, dropped]) h.point(p);
    dirs.push(await writePart(join(dir, `${profile.name}-${droppedPerPart}-${k}`), h));
  }
  const outcome = await mergeRuns({ dirs, outDir: join(dir, `out-${dirs.length}-${Math.random()}`) });
  assert.ok(outcome.report, outcome.message);
  return outcome.report;
}

test('a merged run judges its cut phases and dropped arrivals by its profile', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));

  // Budgets that judge speed: the cut is the registry's failure.
  const judged = await merged(dir, { ...BASE, max_dropped_iterations: 20, budgets_judge_speed: true }, 5);
  assert.equal(judged.phases.find((p) => p.name === 'routes')?.status, 'fail');
  assert.ok(judged.reasons.some((r) => /^phase routes: interrupted, not finished within its 30 s budget$/.test(r)), judged.reasons.join('\n'));
  assert.ok(!judged.could_not_judge.some((r) => r.startsWith('phase routes')), judged.could_not_judge.join('\n'));

  // Budgets that only bound the run (smoke): the cut shows the machine, so the run could not judge it.
  const bounded = await merged(dir, { ...BASE, max_dropped_iterations: 20, budgets_judge_speed: false }, 5);
  assert.equal(bounded.phases.find((p) => p.name === 'routes')?.status, 'error');
  assert.ok(bounded.could_not_judge.some((r) => /^phase routes: interrupted, .* only bounds the run/.test(r)), bounded.could_not_judge.join('\n'));
  assert.ok(!bounded.reasons.some((r) => r === 'phase routes: interrupted, not finished within its 30 s budget'), 'a bounding budget fails nothing');

  // Ten arrivals dropped over both parts: within an allowance of 20, beyond one of 4.
  assert.ok(!judged.could_not_judge.some((r) => r.startsWith('could not judge at this rate')), judged.could_not_judge.join('\n'));
  const strict = await merged(dir, { ...BASE, max_dropped_iterations: 4, budgets_judge_speed: true }, 5);
  assert.equal(strict.phases.find((p) => p.name === 'routes')?.dropped_iterations, 10);
  assert.ok(strict.could_not_judge.some((r) => /^could not judge at this rate: the load generator could not start 10 iteration\(s\) \(routes 10; the profile allows 4\)/.test(r)), strict.could_not_judge.join('\n'));
});
