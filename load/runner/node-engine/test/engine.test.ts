// The Node runner running a fixture script against a local HTTP server:
// executors, their timing, checks, metrics, tags, lifecycle and exit codes.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { EXIT, runWithNodeEngine } from '../engine.ts';
import { startLoopbackServer } from './loopback-server.ts';
import { fileURLToPath } from 'node:url';

const FIXTURE = fileURLToPath(new URL('./fixtures/lifecycle.js', import.meta.url));

test('the Node runner honours executors, checks, metrics and the k6 lifecycle', async (t) => {
  // The most requests of the closed scenario in flight at once: how many of its VUs ran side by side, whatever the machine's speed.
  let closedInFlight = 0;
  let closedPeak = 0;
  let served = 0;
  // The teardown's five /slower requests, sent together: each is held until all five are in flight (or 5 s
  // have passed, so a runner that sends them one by one fails in finite time), so they ran side by side
  // exactly when the server saw five at once, whatever the machine's speed.
  const slower: Array<() => void> = [];
  // The cut scenario's request, never answered: the runner must abandon it (close its connection), not wait.
  let hangAbandoned: Promise<void> | null = null;
  let slowerPeak = 0;
  const base = await startLoopbackServer(t, (req, res) => {
    served++;
    const reply = () => res.end(String(req.headers['authorization'] ?? 'ok'));
    if (req.url?.startsWith('/slow?')) {
      const closed = req.url.endsWith('scenario=closed');
      if (closed) closedPeak = Math.max(closedPeak, ++closedInFlight);
      setTimeout(() => {
        if (closed) closedInFlight--;
        reply();
      }, 100);
    } else if (req.url === '/slower') {
      slower.push(reply);
      slowerPeak = Math.max(slowerPeak, slower.length);
      const release = () => slower.splice(0).forEach((answer) => answer());
      if (slower.length === 5) release();
      else setTimeout(release, 5000).unref();
    } else if (req.url === '/hang') hangAbandoned = new Promise((r) => req.socket.once('close', () => r()));
    else if (req.url?.startsWith('/status/')) {
      res.statusCode = Number(req.url.slice(8));
      res.end();
    } else reply();
  });
  const dir = await mkdtemp(join(tmpdir(), 'node-runner-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const out = join(dir, 'summary.json');
  const consoleFile = join(dir, 'console.log');
  const result = await runWithNodeEngine({
    scriptPath: FIXTURE,
    env: { FIXTURE_BASE: base, FIXTURE_OUT: out },
    consoleOutput: consoleFile,
    progress: () => {},
  });
  assert.equal(result.error, null);
  assert.equal(result.exitCode, EXIT.ok, JSON.stringify(result.thresholds.filter((v) => !v.ok)));
  const data = JSON.parse(await readFile(out, 'utf8'));
  const m = data.metrics;

  // per-vu-iterations 2×3 and shared-iterations 7, counted by scenario tag.
  assert.equal(m['fixture_iterations_seen{phase:shared}'].values.count, 7);
  assert.equal(m['fixture_iterations_seen'].values.count, 13, 'the cut iteration never counted');
  // iterationInTest numbers every iteration of a scenario once: 0..5.
  assert.equal(m['fixture_iteration_id'].values.max, 5);
  assert.equal(m['fixture_iteration_id'].values.min, 0);
  assert.ok(m['fixture_last_vu'].values.value >= 1, '__VU numbers VUs from 1; 0 is setup');
  // Checks: per-VU ones all passed; shared ones failed for odd iterations (503).
  const checks = data.root_group.checks.concat(...data.root_group.groups.map((g: { checks: unknown[] }) => g.checks));
  const byName = Object.fromEntries(checks.map((c: { name: string; passes: number; fails: number }) => [c.name, c]));
  assert.deepEqual([byName['per vu: 200'].passes, byName['per vu: header seen'].passes], [6, 6]);
  assert.deepEqual([byName['shared: 200'].passes, byName['shared: 200'].fails], [4, 3]);
  assert.equal(data.root_group.groups[0].name, 'step');
  assert.equal(m['fixture_even'].values.rate, 4 / 7);
  assert.equal(m['http_req_failed'].values.passes, 3, 'the 503s count as failed requests');
  // Every request the script made reached this server and was counted once, but the one the cut left hanging;
  // the VUs' warm-up requests went to the runner's own server and count nowhere.
  assert.equal(m['http_reqs'].values.count, served - 1);
  // constant-vus: 4 VUs for 2 s against a 100 ms endpoint, side by side (the
  // server saw up to 4 requests at once, never more), each waiting for its
  // answer before the next: at most 4 × 2 s / 100 ms, and a graceful stop's worth.
  const closed = m['http_req_duration{phase:closed}'].values;
  assert.ok(closedPeak >= 2 && closedPeak <= 4, `the closed model's 4 VUs had ${closedPeak} request(s) in flight at once`);
  assert.ok(closed.count >= 4 && closed.count <= 88, `closed model made ${closed.count} requests`);
  assert.ok(closed['p(95)'] >= 90);
  // Arrival-rate executors start exactly rate × duration iterations, run or dropped:
  // 20/s for 1 s, and a ramp from 0 to 20/s over 1 s (its integral, 10).
  const arrivals = (s: string) =>
    (m[`iterations{scenario:${s}}`].values.count ?? 0) + (m[`dropped_iterations{scenario:${s}}`].values.count ?? 0);
  assert.equal(arrivals('open'), 20);
  assert.equal(arrivals('ramp'), 10);
  // The 300 ms budget interrupted the request that never answers: no iteration of it completed, the run did
  // not wait for it (it has no timeout of its own: waiting would never end) but closed its connection, and the
  // interrupted iteration's finally block said nothing.
  assert.equal(m['iterations{scenario:cut}'].values.count ?? 0, 0);
  assert.ok(!(await readFile(consoleFile, 'utf8')).includes('the cut iteration ran on'), 'the cut iteration spoke after its cut');
  const hang = hangAbandoned as Promise<void> | null;
  assert.ok(hang, 'the cut scenario sent its request');
  const abandoned = await Promise.race([hang.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000).unref())]);
  assert.ok(abandoned, 'the runner ended without abandoning the request its cut left in flight');
  await teardownRan(consoleFile);
  assert.equal(slowerPeak, 5, 'the teardown’s five requests ran side by side');
  assert.equal(data.setup_data.digest, 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});

/** The teardown's console lines: setup data reached it, and every request it sent together was answered. */
async function teardownRan(consoleFile: string): Promise<void> {
  const lines = (await readFile(consoleFile, 'utf8')).trim().split('\n');
  assert.ok(lines.includes('teardown saw ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'));
  const together = lines.find((l) => l.startsWith('together '))!.split(' ');
  assert.deepEqual(together.slice(0, 3), ['together', '5', 'true']);
}

test('failed thresholds give exit code 99, abortOnFail too (as in k6), a script error 107', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'node-runner-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const { writeFile } = await import('node:fs/promises');
  const failing = join(dir, 'failing.js');
  await writeFile(
    failing,
    `import { Counter } from 'k6/metrics';\nconst c = new Counter('c');\nexport const options = { iterations: 2, thresholds: { c: ['count<2'] } };\nexport default async function () { c.add(1); }\n`,
  );
  const r = await runWithNodeEngine({ scriptPath: failing, progress: () => {} });
  assert.equal(r.exitCode, EXIT.thresholds);
  assert.deepEqual(
    r.thresholds.map((v) => [v.key, v.ok, v.value]),
    [['c', false, 2]],
  );
  const aborting = join(dir, 'aborting.js');
  await writeFile(
    aborting,
    `import { Counter } from 'k6/metrics';\nimport { setTimeout } from 'k6/timers';\nconst c = new Counter('c');\nexport const options = { scenarios: { s: { executor: 'constant-vus', vus: 1, duration: '10m' } }, thresholds: { c: [{ threshold: 'count<3', abortOnFail: true }] } };\nexport default async function () { c.add(1); await new Promise((r) => setTimeout(r, 50)); }\n`,
  );
  // A 10-minute scenario: only the abort ends it within the test's own time limit.
  const a = await runWithNodeEngine({ scriptPath: aborting, progress: () => {} });
  assert.equal(a.exitCode, EXIT.thresholds);
  assert.match(a.aborted ?? '', /threshold c count<3 failed/);
  const broken = join(dir, 'broken.js');
  await writeFile(broken, `import nope from 'k6/nope';\nexport default function () {}\n`);
  const b = await runWithNodeEngine({ scriptPath: broken, progress: () => {} });
  assert.equal(b.exitCode, EXIT.scriptError);
  assert.match(b.error ?? '', /does not provide k6\/nope/);
});

test('a console file the disk cannot take fails the run as a script error, not the process', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'node-runner-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const { writeFile } = await import('node:fs/promises');
  const script = join(dir, 'talks.js');
  await writeFile(
    script,
    `export const options = { iterations: 3 };\nexport default async function () { console.log('a line the disk cannot take'); }\n`,
  );
  // Every write to /dev/full fails with ENOSPC, as on a full disk.
  const r = await runWithNodeEngine({ scriptPath: script, consoleOutput: '/dev/full', progress: () => {} });
  assert.equal(r.exitCode, EXIT.scriptError);
  assert.match(r.error ?? '', /^writing \/dev\/full: ENOSPC/);
});
