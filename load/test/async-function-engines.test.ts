// An async k6 function (http.asyncRequest) is plain k6: the same script runs
// on k6 and on the Node runner's async VUs (node-engine/local-vus.ts), and
// both account for each arrival of a constant arrival rate the same way, as
// one iteration with its request or one dropped arrival. The script is
// bench:load's, the one whose figures load/README quotes for both engines.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { findK6 } from '../runner/engines.ts';
import { runWithNodeEngine } from '../runner/node-engine/engine.ts';
import { startLoopbackServer } from '../runner/node-engine/test/loopback-server.ts';

const SCRIPT = fileURLToPath(new URL('../bench/arrivals.js', import.meta.url));
const k6 = findK6();
if (!k6) console.log('notice: k6 is not on PATH; the async script runs on the Node runner only (.ci/run installs k6)');

/** 20 arrivals: 20 a second for one second. */
const ARRIVALS = 20;

interface Summary {
  requests: number;
  iterations: number;
  dropped: number;
}

function runK6(env: Record<string, string>): Promise<number | null> {
  const flags = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  const child = spawn('k6', ['run', '-q', ...flags, SCRIPT], { stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
}

test('one async function, each engine: every arrival is one iteration with its request, or one dropped arrival', async (t) => {
  const byAgent = new Map<string, number>();
  const base = await startLoopbackServer(t, (req, res) => {
    const engine = req.headers['user-agent'] === 'fleetproof-node-runner' ? 'node' : 'k6';
    if (req.url === '/version') byAgent.set(engine, (byAgent.get(engine) ?? 0) + 1);
    res.end('{}');
  });
  const dir = await mkdtemp(join(tmpdir(), 'async-function-engines-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const env = (engine: string) => ({
    TARGET: base,
    RATE: String(ARRIVALS),
    DURATION_S: '1',
    VUS: '2',
    FUNCTION: 'async',
    SUMMARY: join(dir, `${engine}.json`),
  });

  const node = await runWithNodeEngine({ scriptPath: SCRIPT, env: env('node'), progress: () => {} });
  assert.equal(node.error, null);
  const engines = ['node'];
  if (k6) {
    assert.equal(await runK6(env('k6')), 0, 'k6 ran the async script');
    engines.push('k6');
  }
  for (const engine of engines) {
    const s = JSON.parse(await readFile(join(dir, `${engine}.json`), 'utf8')) as Summary;
    // k6 races the arrival due at the very end of the duration against the end itself, and sometimes starts it.
    const arrivals = engine === 'k6' ? [ARRIVALS, ARRIVALS + 1] : [ARRIVALS];
    assert.ok(
      arrivals.includes(s.iterations + s.dropped),
      `${engine}: ${s.iterations} iterations and ${s.dropped} dropped of ${arrivals.join(' or ')} arrivals`,
    );
    assert.equal(s.requests, s.iterations, `${engine}: one request per iteration`);
    assert.equal(byAgent.get(engine) ?? 0, s.requests, `${engine}: the server saw every request the summary counts`);
    assert.ok(s.iterations > 0, `${engine} ran no iteration`);
  }
});
