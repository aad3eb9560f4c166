// An arrival-rate scenario's iterations that outlive its hard end (duration
// plus gracefulStop) are interrupted there, as k6 does: never counted as
// completed, their requests in flight cancelled, and nothing of them running
// once the teardown starts. The graceful stop and the iterations' own
// deadline end at the same instant; whichever of the two the clock serves
// first, nothing runs on past it.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { EXIT, runWithNodeEngine } from '../engine.ts';
import { startHangingServer } from './hanging-server.ts';

// Scenarios ending at different hard ends, with iterations that wait past them: for an answer that never
// comes (hang), or on a timer after which they would make one more request (sleeper). The teardown
// waits longer than any of those timers before it says it runs.
const SCRIPT = `import http from 'k6/http';
import { setTimeout } from 'k6/timers';
const arrivals = { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', preAllocatedVUs: 2, maxVUs: 2 };
export const options = {
  scenarios: {
    a: { ...arrivals, exec: 'hang', duration: '300ms', gracefulStop: '200ms' },
    b: { ...arrivals, exec: 'sleeper', duration: '400ms', gracefulStop: '150ms' },
    c: { ...arrivals, exec: 'hang', duration: '350ms', gracefulStop: '0s', startTime: '100ms' },
    d: { ...arrivals, exec: 'sleeper', duration: '500ms', gracefulStop: '250ms' },
  },
  // A sub-metric is in the summary only when a threshold names it.
  thresholds: Object.fromEntries(['a', 'b', 'c', 'd'].map((s) => ['iterations{scenario:' + s + '}', ['count>=0']])),
};
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export async function hang() { await http.asyncRequest('GET', __ENV.BASE + '/hang', null, { timeout: '60s' }); }
export async function sleeper() { await pause(1000); await http.asyncRequest('GET', __ENV.BASE + '/after-the-hard-end'); }
export async function teardown() { await pause(1500); await http.asyncRequest('GET', __ENV.BASE + '/teardown'); }
export function handleSummary(data) { return { [__ENV.OUT]: JSON.stringify(data) }; }
`;

test('iterations past an arrival-rate scenario’s hard end are interrupted there, their requests cancelled', async (t) => {
  const server = await startHangingServer(t);
  const dir = await mkdtemp(join(tmpdir(), 'node-runner-hard-end-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const script = join(dir, 'hard-end.js');
  await writeFile(script, SCRIPT);
  const out = join(dir, 'summary.json');
  const r = await runWithNodeEngine({ scriptPath: script, env: { BASE: server.base, OUT: out }, progress: () => {} });
  assert.equal(r.error, null);
  assert.equal(r.exitCode, EXIT.ok);
  const hung = server.paths.filter((p) => p === '/hang').length;
  assert.ok(hung >= 4, `each hanging scenario started its two VUs' iterations (${hung} requests)`);
  assert.ok(server.paths.includes('/teardown'), 'the teardown ran');
  assert.equal(
    server.openAtTeardown(),
    0,
    `${server.openAtTeardown()} of ${hung} requests of interrupted iterations were still open when the teardown ran`,
  );
  assert.deepEqual(
    server.paths.filter((p) => p === '/after-the-hard-end'),
    [],
    'an iteration went on past its hard end',
  );
  const m = JSON.parse(await readFile(out, 'utf8')).metrics;
  for (const s of ['a', 'b', 'c', 'd'])
    assert.equal(m[`iterations{scenario:${s}}`].values.count, 0, `scenario ${s}: no iteration completed`);
});
