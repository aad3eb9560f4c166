// VUs interrupted at an arrival-rate scenario's hard end (duration plus
// gracefulStop), as k6 interrupts them: a VU shares the runner's thread,
// so it cannot be stopped by ending a thread. Its wait must instead be
// abandoned: the request it awaits cancelled (its connection closed), the
// k6/timers timer it awaits cleared, and nothing after either wait ever
// run, logged or counted, not even while the teardown, itself async, still
// runs in the same thread. What it emitted before the cut counts, as in k6.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { EXIT, runWithNodeEngine } from '../engine.ts';
import { startHangingServer } from './hanging-server.ts';

// Both scenarios end hard at 500 ms. `hang` waits for an answer that never comes; `wait` waits on a timer
// that would fire past the hard end (1 s after its start) but well before the teardown's request (1.5 s
// after the hard end): a timer the interruption left alive would be seen firing while the run still goes on.
const SCRIPT = `import http from 'k6/http';
import { setTimeout } from 'k6/timers';
const arrivals = { executor: 'constant-arrival-rate', rate: 10, timeUnit: '1s', duration: '300ms', gracefulStop: '200ms', preAllocatedVUs: 2, maxVUs: 2 };
export const options = {
  scenarios: { hanging: { ...arrivals, exec: 'hang' }, waiting: { ...arrivals, exec: 'wait' } },
  // A sub-metric is in the summary only when a threshold names it.
  thresholds: { 'iterations{scenario:hanging}': ['count>=0'], 'iterations{scenario:waiting}': ['count>=0'] },
};
export async function hang() {
  await http.asyncRequest('GET', __ENV.BASE + '/hang', null, { timeout: '60s' });
  console.log('after');
}
export async function wait() {
  await new Promise((r) => setTimeout(r, 1000));
  await http.asyncRequest('GET', __ENV.BASE + '/after-the-hard-end');
  console.log('after');
}
export async function teardown() {
  await new Promise((r) => setTimeout(r, 1500));
  await http.asyncRequest('GET', __ENV.BASE + '/teardown');
  console.log('teardown ran');
}
export function handleSummary(data) { return { [__ENV.OUT]: JSON.stringify(data) }; }
`;

test('async iterations past their hard end are interrupted: requests cancelled, timers cleared, nothing after the wait runs', async (t) => {
  const server = await startHangingServer(t);
  const dir = await mkdtemp(join(tmpdir(), 'node-runner-async-interrupt-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const script = join(dir, 'interrupt.js');
  await writeFile(script, SCRIPT);
  const out = join(dir, 'summary.json');
  const consoleFile = join(dir, 'console.log');
  const r = await runWithNodeEngine({
    scriptPath: script,
    env: { BASE: server.base, OUT: out },
    consoleOutput: consoleFile,
    progress: () => {},
  });
  assert.equal(r.error, null);
  assert.equal(r.exitCode, EXIT.ok);
  const hung = server.paths.filter((p) => p === '/hang').length;
  assert.ok(hung >= 1, 'the hanging scenario sent its requests');
  assert.ok(server.paths.includes('/teardown'), 'the async teardown ran to its end');
  assert.equal(
    server.openAtTeardown(),
    0,
    `${server.openAtTeardown()} of ${hung} requests of interrupted iterations were still open when the teardown ran`,
  );
  assert.deepEqual(
    server.paths.filter((p) => p === '/after-the-hard-end'),
    [],
    'a cleared timer fired, or an iteration went on past its hard end',
  );
  const m = JSON.parse(await readFile(out, 'utf8')).metrics;
  for (const s of ['hanging', 'waiting'])
    assert.equal(m[`iterations{scenario:${s}}`].values.count, 0, `scenario ${s}: an interrupted iteration was counted`);
  // The teardown's line shows a VU's console reaches the file; the interrupted ones said nothing.
  const lines = (await readFile(consoleFile, 'utf8')).split('\n');
  assert.ok(lines.includes('teardown ran'), 'the async teardown’s console line is missing');
  assert.ok(!lines.some((l) => l.includes('after')), `an interrupted iteration logged after its wait: ${JSON.stringify(lines)}`);
});

test('what an iteration cut at the hard end emitted before the cut counts, and every iteration before it completed', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'node-runner-cut-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const script = join(dir, 'cut.js');
  const out = join(dir, 'summary.json');
  // One VU at 1,000 arrivals/s; its 50th iteration waits past the hard end and is interrupted there. 50
  // fit in 2 s however slowly a busy machine runs them.
  await writeFile(
    script,
    `import exec from 'k6/execution';
import { Counter } from 'k6/metrics';
import { setTimeout } from 'k6/timers';
const started = new Counter('started');
export const options = { scenarios: { s: { executor: 'constant-arrival-rate', rate: 1000, timeUnit: '1s', duration: '2s', preAllocatedVUs: 1, maxVUs: 1, gracefulStop: '0s' } } };
export default async function () {
  started.add(1);
  if (exec.scenario.iterationInTest === 49) await new Promise((resolve) => setTimeout(resolve, 30_000));
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
