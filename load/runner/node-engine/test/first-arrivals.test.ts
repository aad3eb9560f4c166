// An arrival-rate scenario's first arrival is due the instant the scenario
// starts, and its pre-allocated VUs are free for it then, as in k6: none of
// its arrivals is dropped while fewer of them are in flight than it has
// VUs. Here a scenario starting with the test and one starting later each
// run 4 arrivals, 250 ms apart, on one VU against an endpoint that answers
// at once; only an iteration that took a quarter of a second could leave it
// busy. No iteration starts before its scenario does.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { EXIT, runWithNodeEngine } from '../engine.ts';
import { startLoopbackServer } from './loopback-server.ts';

const SCRIPT = `import http from 'k6/http';
import exec from 'k6/execution';
const arrivals = { executor: 'constant-arrival-rate', rate: 4, timeUnit: '1s', duration: '1s', preAllocatedVUs: 1, maxVUs: 1 };
export const options = {
  scenarios: { first: { ...arrivals }, later: { ...arrivals, startTime: '300ms' } },
  // A sub-metric is in the summary only when a threshold names it.
  thresholds: Object.fromEntries(['first', 'later'].flatMap((s) => [['iterations{scenario:' + s + '}', ['count>=0']], ['dropped_iterations{scenario:' + s + '}', ['count>=0']]])),
};
export default async function () { await http.asyncRequest('GET', __ENV.BASE + '/' + exec.scenario.name + '/' + exec.scenario.iterationInTest + '/' + Math.floor(exec.instance.currentTestRunDuration)); }
export function handleSummary(data) { return { [__ENV.OUT]: JSON.stringify(data) }; }
`;

test('an arrival-rate scenario’s pre-allocated VUs take its first arrivals, at its start', async (t) => {
  const paths: string[] = [];
  const base = await startLoopbackServer(t, (req, res) => {
    paths.push(req.url ?? '');
    res.end('ok');
  });
  const dir = await mkdtemp(join(tmpdir(), 'node-runner-first-arrivals-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const script = join(dir, 'first-arrivals.js');
  await writeFile(script, SCRIPT);
  const out = join(dir, 'summary.json');
  const r = await runWithNodeEngine({ scriptPath: script, env: { BASE: base, OUT: out }, progress: () => {} });
  assert.equal(r.error, null);
  assert.equal(r.exitCode, EXIT.ok);
  const m = JSON.parse(await readFile(out, 'utf8')).metrics;
  for (const s of ['first', 'later']) {
    assert.equal(m[`dropped_iterations{scenario:${s}}`]?.values.count ?? 0, 0, `scenario ${s} dropped arrivals`);
    assert.equal(m[`iterations{scenario:${s}}`].values.count, 4, `scenario ${s}: every arrival ran`);
    const seen = paths
      .filter((p) => p.startsWith(`/${s}/`))
      .map((p) => Number(p.split('/')[2]))
      .sort((a, b) => a - b);
    assert.deepEqual(seen, [0, 1, 2, 3], `scenario ${s}: each iteration number once, the first included`);
    const startedAt = paths.filter((p) => p.startsWith(`/${s}/`)).map((p) => Number(p.split('/')[3]));
    const earliest = s === 'first' ? 0 : 300;
    assert.ok(
      startedAt.every((ms) => ms >= earliest),
      `scenario ${s}: an iteration began before the scenario's start (${startedAt.join(', ')} ms into the test)`,
    );
  }
});
