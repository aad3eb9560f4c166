// The Node runner's warm-up before a high arrival rate (warm-up.ts): it runs,
// and none of its requests reaches the target or counts in the test's metrics.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runWithNodeEngine } from '../engine.ts';
import { startLoopbackServer } from './loopback-server.ts';
import { peakArrivalRate, WARM_UP_FROM_RATE } from '../warm-up.ts';
import { scenariosOf } from '../scenarios.ts';

const SCRIPT = `import http from 'k6/http';
export const options = { scenarios: { fast: { executor: 'constant-arrival-rate', rate: 1000, timeUnit: '1s', duration: '300ms', preAllocatedVUs: 4, maxVUs: 4 } } };
export default async function () { await http.asyncRequest('GET', __ENV.TARGET + '/target'); }
export function handleSummary(data) { return { [__ENV.OUT]: JSON.stringify(data) }; }
`;

test('before a high arrival rate the VUs warm up on the runner’s own server: the target sees none of it, the metrics count none', async (t) => {
  const paths = new Map<string, number>();
  const base = await startLoopbackServer(t, (req, res) => {
    paths.set(req.url!, (paths.get(req.url!) ?? 0) + 1);
    res.end('ok');
  });
  const dir = await mkdtemp(join(tmpdir(), 'warm-up-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'script.js'), SCRIPT);
  const stages: string[] = [];
  const out = join(dir, 'summary.json');
  const result = await runWithNodeEngine({
    scriptPath: join(dir, 'script.js'),
    env: { TARGET: base, OUT: out },
    progress: (line) => stages.push(line),
  });
  assert.equal(result.error, null);
  assert.ok(
    stages.some((l) => l.includes('warming up VUs')),
    `no warm-up stage among ${JSON.stringify(stages.slice(0, 5))}`,
  );
  assert.deepEqual([...paths.keys()], ['/target'], 'the target saw only the script’s requests');
  const m = JSON.parse(await readFile(out, 'utf8')).metrics;
  assert.equal(m['http_reqs'].values.count, paths.get('/target'), 'the metrics count exactly the requests the target saw');
});

test('the warm-up is for high arrival rates only', () => {
  const at = (rate: number, timeUnit = '1s') =>
    peakArrivalRate(
      scenariosOf({ scenarios: { s: { executor: 'constant-arrival-rate', rate, timeUnit, duration: '1s', preAllocatedVUs: 1 } } }),
    );
  assert.ok(at(WARM_UP_FROM_RATE) >= WARM_UP_FROM_RATE);
  assert.ok(at(WARM_UP_FROM_RATE - 1) < WARM_UP_FROM_RATE);
  assert.equal(at(60, '1m'), 1);
  const ramp = scenariosOf({
    scenarios: {
      r: { executor: 'ramping-arrival-rate', startRate: 0, timeUnit: '1s', preAllocatedVUs: 1, stages: [{ target: 2000, duration: '1s' }] },
    },
  });
  assert.equal(peakArrivalRate(ramp), 2000);
  assert.equal(peakArrivalRate(scenariosOf({ scenarios: { v: { executor: 'constant-vus', vus: 50, duration: '1s' } } })), 0);
});
