// Iterations handed to VUs through shared memory (vu/control-cells.js): a
// VU holds its samples up to 50 ms and posts nothing when an iteration ends
// while an arrival-rate loop looks at its cells, and it never returns to its
// event loop between calls. Neither may lose a sample or leave work undone
// silently. (Async functions run on async VUs instead: async-vus.test.ts.)
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runWithNodeEngine } from '../engine.ts';

test('the samples of iterations before one cut at the hard end all reach the summary', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'node-runner-handoff-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const script = join(dir, 'cut.js');
  const out = join(dir, 'summary.json');
  // One VU at 1,000 arrivals/s: its loop turns every millisecond and promises to look, so the VU
  // holds its samples. Its 50th iteration sleeps past the hard end and is interrupted there; 50 fit
  // in 2 s however slowly a busy machine runs it.
  await writeFile(
    script,
    `import { sleep } from 'k6';
import exec from 'k6/execution';
import { Counter } from 'k6/metrics';
const started = new Counter('started');
export const options = { scenarios: { s: { executor: 'constant-arrival-rate', rate: 1000, timeUnit: '1s', duration: '2s', preAllocatedVUs: 1, maxVUs: 1, gracefulStop: '0s' } } };
export default function () {
  started.add(1);
  if (exec.scenario.iterationInTest === 49) sleep(30);
}
export function handleSummary(data) {
  return { ${JSON.stringify(out)}: JSON.stringify({ started: data.metrics.started.values.count, iterations: data.metrics.iterations.values.count }) };
}
`,
  );
  const r = await runWithNodeEngine({ scriptPath: script, progress: () => {} });
  assert.equal(r.error, null);
  const counts = JSON.parse(await readFile(out, 'utf8')) as { started: number; iterations: number };
  assert.equal(counts.iterations, 49, 'the 49 iterations before the cut completed');
  // k6 counts what an interrupted iteration emitted before the cut: 49 completed iterations and the cut one.
  assert.equal(counts.started, 50);
});

test('a synchronous scenario function that returns a promise fails its iteration with a reason', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'node-runner-handoff-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const script = join(dir, 'thenable.js');
  const consoleOutput = join(dir, 'console.log');
  // Not declared async, so it runs on a VU thread, which never returns to its event loop to settle the promise.
  await writeFile(
    script,
    `export const options = { iterations: 2 };\nexport default function () { return Promise.resolve().then(() => console.log('after the promise')); }\n`,
  );
  const r = await runWithNodeEngine({ scriptPath: script, consoleOutput, progress: () => {} });
  assert.equal(r.error, null);
  const lines = (await readFile(consoleOutput, 'utf8')).trim().split('\n');
  // Each iteration failed, with the reason. What the promise's callback does may still run, or not,
  // whenever Node next drains the VU's microtasks: nothing to assert there.
  assert.equal(lines.filter((l) => /returned a promise without being an async function/.test(l)).length, 2, lines.join('\n'));
});
