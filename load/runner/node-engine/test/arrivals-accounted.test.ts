// Every arrival of an arrival-rate scenario is run or counted as dropped,
// however late the runner's thread gets to it, and the parts of a split
// test account for exactly the whole test's arrivals. A busy machine serves
// the arrival loop's timer late; here a scenario of the same test holds the
// runner's thread (where every VU and the loop live) from before the
// last arrivals are due until after the arrivals' duration has ended, so
// the loop wakes past the end with arrivals still due. Only counts are
// asserted: whether an arrival ran or was dropped depends on the machine.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { SegmentChoice } from '../../execution-segments.ts';
import { EXIT, runWithNodeEngine } from '../engine.ts';

const SCENARIOS = ['constant', 'ramp'];

const SCRIPT = `
export const options = {
  scenarios: {
    constant: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '1s', preAllocatedVUs: 2, maxVUs: 2, exec: 'arrive' },
    ramp: { executor: 'ramping-arrival-rate', startRate: 0, timeUnit: '1s', stages: [{ target: 20, duration: '1s' }], preAllocatedVUs: 2, maxVUs: 2, exec: 'arrive' },
    hog: { executor: 'per-vu-iterations', vus: 1, iterations: 1, startTime: '500ms', exec: 'hold' },
  },
  // A sub-metric is in the summary only when a threshold names it.
  thresholds: Object.fromEntries(${JSON.stringify(SCENARIOS)}.flatMap((s) => [['iterations{scenario:' + s + '}', ['count>=0']], ['dropped_iterations{scenario:' + s + '}', ['count>=0']]])),
};
export async function arrive() {}
export async function hold() {
  const until = Date.now() + 800;
  while (Date.now() < until);
}
export function handleSummary(data) { return { [__ENV.OUT]: JSON.stringify(data.metrics) }; }
`;

/** Each scenario's arrivals, run or dropped, in one run of the script. */
async function arrivalsOf(dir: string, name: string, segment?: SegmentChoice): Promise<Record<string, number>> {
  const out = join(dir, `${name}.json`);
  const r = await runWithNodeEngine({
    scriptPath: join(dir, 'script.js'),
    env: { OUT: out },
    progress: () => {},
    ...(segment ? { segment } : {}),
  });
  assert.equal(r.exitCode, EXIT.ok, r.error ?? '');
  const m = JSON.parse(await readFile(out, 'utf8')) as Record<string, { values: { count?: number } } | undefined>;
  const count = (key: string) => m[key]?.values.count ?? 0;
  return Object.fromEntries(SCENARIOS.map((s) => [s, count(`iterations{scenario:${s}}`) + count(`dropped_iterations{scenario:${s}}`)]));
}

test('arrivals due while the runner’s thread is held past the scenario’s end are run or dropped, in a whole test and in its parts', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'node-runner-arrivals-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'script.js'), SCRIPT);
  // 20/s for 1 s, and the ramp from 0 to 20/s over 1 s (its integral).
  const whole = { constant: 20, ramp: 10 };
  assert.deepEqual(await arrivalsOf(dir, 'whole'), whole, 'the whole test');
  const sequence = '0,1/2,1';
  const first = await arrivalsOf(dir, 'first', { segment: '0:1/2', sequence });
  const second = await arrivalsOf(dir, 'second', { segment: '1/2:1', sequence });
  assert.deepEqual(
    Object.fromEntries(SCENARIOS.map((s) => [s, first[s]! + second[s]!])),
    whole,
    `the parts' arrivals (${JSON.stringify(first)} and ${JSON.stringify(second)}) are the whole test's`,
  );
});
