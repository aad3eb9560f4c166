// The Node runner's VUs (virtual-users.ts) share the runner's own thread and
// follow their code across awaits. They must keep k6's semantics all the
// same. Each iteration sees its own VU (__VU, __ITER, exec.*) after every
// await, however the VUs interleave. Arrival-rate executors account for
// every arrival as run or dropped. Setup data reaches every iteration. Their
// requests are measured and checked as k6 measures and checks them.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { EXIT, runWithNodeEngine, type NodeEngineResult } from '../engine.ts';
import { startLoopbackServer } from './loopback-server.ts';

interface Run {
  result: NodeEngineResult;
  /** The URLs the server saw, in arrival order; every one answered 200, /slow after 150 ms. */
  urls: URL[];
  summary: () => Promise<{ metrics: Record<string, { values: Record<string, number> }> }>;
}

/** Runs `script` against a loopback server that answers everything (/slow late); cleaned up after the test. */
async function run(t: TestContext, script: string): Promise<Run> {
  const urls: URL[] = [];
  const base = await startLoopbackServer(t, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://server');
    urls.push(url);
    if (url.pathname === '/slow') setTimeout(() => res.end('ok'), 150);
    else res.end('ok');
  });
  const dir = await mkdtemp(join(tmpdir(), 'node-runner-async-vus-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const scriptPath = join(dir, 'script.js');
  await writeFile(scriptPath, script);
  const out = join(dir, 'summary.json');
  const result = await runWithNodeEngine({ scriptPath, env: { BASE: base, OUT: out }, progress: () => {} });
  return { result, urls, summary: async () => JSON.parse(await readFile(out, 'utf8')) };
}

test('an arrival-rate scenario runs or drops each arrival once, with setup data, metrics and checks', async (t) => {
  // Answers take 150 ms, so a VU starts at most 7 iterations in the second and 5 VUs cannot keep up with
  // 50 arrivals: some are dropped whatever the machine's speed, and both the run and the dropped branches
  // are counted.
  const { result, urls, summary } = await run(
    t,
    `import http from 'k6/http';
import { check } from 'k6';
import exec from 'k6/execution';
export const options = {
  scenarios: { arrivals: { executor: 'constant-arrival-rate', exec: 'go', rate: 50, timeUnit: '1s', duration: '1s', preAllocatedVUs: 5, maxVUs: 5 } },
};
export async function setup() { return { token: 'x' }; }
export async function go(data) {
  const r = await http.asyncRequest('GET', __ENV.BASE + '/slow?i=' + exec.scenario.iterationInTest + '&vu=' + __VU + '&token=' + data.token);
  check(r, { 'status 200': (x) => x.status === 200 });
}
export function handleSummary(data) { return { [__ENV.OUT]: JSON.stringify(data) }; }
`,
  );
  assert.equal(result.error, null);
  assert.equal(result.exitCode, EXIT.ok);
  const m = (await summary()).metrics;
  const iterations = m['iterations']?.values['count'] ?? 0;
  const dropped = m['dropped_iterations']?.values['count'] ?? 0;
  // 50/s for 1 s is 50 arrivals, each run or dropped; each run one made one request.
  assert.equal(iterations + dropped, 50, `${iterations} iterations + ${dropped} dropped`);
  assert.ok(iterations > 0 && dropped > 0, `${iterations} iterations, ${dropped} dropped: both should happen`);
  assert.equal(urls.length, iterations, 'requests seen by the server vs iterations counted');
  assert.equal(m['http_reqs']?.values['count'], urls.length, 'http_reqs vs requests seen by the server');
  // iterationInTest numbers the iterations that ran, once each: 0..N-1.
  const numbers = urls.map((u) => Number(u.searchParams.get('i'))).sort((a, b) => a - b);
  assert.deepEqual(
    numbers,
    Array.from({ length: urls.length }, (_, i) => i),
  );
  assert.deepEqual([...new Set(urls.map((u) => u.searchParams.get('token')))], ['x'], 'setup data did not reach every iteration');
  const vus = new Set(urls.map((u) => Number(u.searchParams.get('vu'))));
  assert.ok(
    [...vus].every((v) => Number.isInteger(v) && v >= 1),
    `__VU numbers VUs from 1: ${[...vus]}`,
  );
  assert.ok(vus.size <= 5, `more VUs than maxVUs: ${[...vus]}`);
  assert.equal(m['checks']?.values['rate'], 1);
  assert.equal(m['checks']?.values['passes'], urls.length);
});

test('closed-model VUs interleave across awaits, each keeping its own __VU, __ITER and exec.vu', async (t) => {
  // Every iteration waits on a timer first, so the three VUs' iterations are all suspended at once
  // and resume in any order: what each reads after its waits must still be its own.
  const { result, urls } = await run(
    t,
    `import http from 'k6/http';
import exec from 'k6/execution';
import { setTimeout } from 'k6/timers';
export const options = { scenarios: { loops: { executor: 'per-vu-iterations', exec: 'go', vus: 3, iterations: 4 } } };
export async function go() {
  await new Promise((r) => setTimeout(r, 20));
  await http.asyncRequest('GET', __ENV.BASE + '/it?vu=' + exec.vu.idInTest + '&global=' + __VU + '&iter=' + __ITER);
}
`,
  );
  assert.equal(result.error, null);
  assert.equal(result.exitCode, EXIT.ok);
  assert.equal(urls.length, 12);
  for (const u of urls)
    assert.equal(u.searchParams.get('global'), u.searchParams.get('vu'), `__VU and exec.vu.idInTest disagree: ${u.search}`);
  const pairs = urls.map((u) => `${u.searchParams.get('vu')}/${u.searchParams.get('iter')}`);
  assert.equal(new Set(pairs).size, 12, `a (vu, iter) pair was seen twice: ${pairs.sort()}`);
  const itersByVu = new Map<string, number[]>();
  for (const u of urls) {
    const vu = u.searchParams.get('vu')!;
    itersByVu.set(vu, [...(itersByVu.get(vu) ?? []), Number(u.searchParams.get('iter'))]);
  }
  assert.equal(itersByVu.size, 3, `VUs seen: ${[...itersByVu.keys()]}`);
  for (const [vu, iters] of itersByVu)
    assert.deepEqual(
      iters.sort((a, b) => a - b),
      [0, 1, 2, 3],
      `VU ${vu}'s __ITER values`,
    );
});
