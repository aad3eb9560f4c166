// The Node runner split by execution segments as k6 splits a test: each part
// starts its own stripe of a constant arrival rate's arrivals, numbered in
// the whole test, the parts' arrivals (run or dropped) add up to the whole
// test's, a single-VU scenario runs in one part only, and the script sees
// its segment in exec.test.options. An arrival that finds no free VU is
// dropped and counted.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runWithNodeEngine } from '../engine.ts';

const SCRIPT = `import exec from 'k6/execution';
import { setTimeout } from 'k6/timers';
export const options = { scenarios: {
  open: { executor: 'constant-arrival-rate', rate: 40, timeUnit: '1s', duration: '1s', preAllocatedVUs: 4, maxVUs: 4, exec: 'arrive' },
  single: { executor: 'per-vu-iterations', vus: 1, iterations: 1, exec: 'once' },
  starved: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '1s', preAllocatedVUs: 1, maxVUs: 1, exec: 'stall' },
},
// Declaring the sub-metrics makes the summary hold them.
thresholds: { 'iterations{scenario:starved}': ['count>=0'], 'dropped_iterations{scenario:starved}': ['count>=0'], 'dropped_iterations{scenario:open}': ['count>=0'] } };
export async function arrive() { console.log(JSON.stringify({ id: exec.scenario.iterationInTest, segment: exec.test.options.executionSegment })); }
export async function once() { console.log(JSON.stringify({ once: true })); }
export async function stall() { await new Promise((resolve) => setTimeout(resolve, 500)); }
export function handleSummary(data) {
  const count = (m) => (data.metrics[m] ? data.metrics[m].values.count : 0);
  return { [__ENV.OUT]: JSON.stringify({ starvedRan: count('iterations{scenario:starved}'), starvedDropped: count('dropped_iterations{scenario:starved}'), openDropped: count('dropped_iterations{scenario:open}') }) };
}
`;

test('two segments split the arrivals of a test between them, numbered in the whole test', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'node-runner-segments-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const script = join(dir, 'split.js');
  await writeFile(script, SCRIPT);
  const parts = [];
  for (const segment of ['0:1/2', '1/2:1']) {
    const consoleOutput = join(dir, `${segment.replace(/\W/g, '_')}.log`);
    const out = join(dir, `${segment.replace(/\W/g, '_')}.json`);
    const r = await runWithNodeEngine({
      scriptPath: script,
      env: { OUT: out },
      consoleOutput,
      segment: { segment, sequence: '0,1/2,1' },
      progress: () => {},
    });
    assert.equal(r.error, null);
    const lines = (await readFile(consoleOutput, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id?: number; segment?: string; once?: boolean });
    parts.push({
      segment,
      lines,
      summary: JSON.parse(await readFile(out, 'utf8')) as { starvedRan: number; starvedDropped: number; openDropped: number },
    });
  }
  const ids = parts.map((p) => p.lines.filter((l) => l.id !== undefined).map((l) => l.id!));
  const dropped = parts.map((p) => p.summary.openDropped);
  assert.equal(ids[0]!.length + ids[1]!.length + dropped[0]! + dropped[1]!, 40, "the parts' arrivals are the whole test's");
  assert.ok(
    ids[0]!.every((id) => id % 2 === 0) && ids[1]!.every((id) => id % 2 === 1),
    `each part runs its own stripe: ${ids.map((x) => x.join(',')).join(' | ')}`,
  );
  assert.ok(
    parts.every((p) => p.lines.filter((l) => l.id !== undefined).every((l) => l.segment === p.segment)),
    'the script sees its segment',
  );
  assert.deepEqual(
    parts.map((p) => p.lines.filter((l) => l.once).length),
    [1, 0],
    'one VU runs in the first part only',
  );
  // The starved scenario's single VU lives in the first part; it waits 0.5 s per iteration at 20/s.
  const starved = parts[0]!.summary;
  assert.equal(starved.starvedRan + starved.starvedDropped, 20, 'every arrival ran or was counted as dropped');
  assert.ok(starved.starvedDropped > 0, 'arrivals that found no free VU were dropped');
  assert.equal(parts[1]!.summary.starvedRan + parts[1]!.summary.starvedDropped, 0);
});
