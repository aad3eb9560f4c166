// The Node runner runs async functions only, every VU in its own thread: a
// scenario's function, setup or teardown not declared `async` is refused
// before setup or any VU runs, and a blocking call (http.get and its kind,
// http.batch, sleep) when it is reached, even if the script catches the
// error. Either ends the run as a script error, which `fleetproof load`
// reports as could not run, with a message that names the function and
// says what to do instead; nothing of the script runs after it.
import assert from 'node:assert/strict';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { EXIT, runWithNodeEngine, type NodeEngineResult } from '../engine.ts';
import { startLoopbackServer } from './loopback-server.ts';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** Runs the script at `scriptPath` against a server that answers everything; returns the paths it saw. */
async function runAgainstServer(t: TestContext, scriptPath: string, env: Record<string, string> = {}) {
  const paths: string[] = [];
  const base = await startLoopbackServer(t, (req, res) => {
    paths.push(req.url ?? '');
    res.end('{}');
  });
  const result = await runWithNodeEngine({ scriptPath, env: { BASE: base, ...env }, progress: () => {} });
  return { result, paths };
}

function assertRefused(result: NodeEngineResult, names: RegExp): void {
  assert.equal(result.exitCode, EXIT.scriptError, result.error ?? 'no error');
  assert.match(result.error ?? '', names);
  assert.match(result.error ?? '', /--engine k6/, 'the message offers k6');
}

test('a synchronous default function is refused before setup or any VU runs', async (t) => {
  const { result, paths } = await runAgainstServer(t, fixture('sync-default.js'));
  assertRefused(result, /default \(the function of scenario default\) is not declared async: declare it `async`/);
  assert.match(result.error!, /http\.asyncRequest/);
  assert.match(result.error!, /k6\/timers/);
  assert.deepEqual(paths, [], 'setup or an iteration ran');
});

test('a synchronous setup is refused before it or any VU runs', async (t) => {
  const { result, paths } = await runAgainstServer(t, fixture('sync-setup.js'));
  assertRefused(result, /^the Node runner runs async functions only, and setup is not declared async/);
  assert.deepEqual(paths, [], 'setup or an iteration ran');
});

// Each function catches what its blocking call throws and would go on for ten minutes: only the refusal
// ends the run within the test's own time limit.
const BLOCKING = `import http from 'k6/http';
import { sleep } from 'k6';
import { setTimeout } from 'k6/timers';
const pause = () => new Promise((resolve) => setTimeout(resolve, 10));
export const options = { scenarios: { s: { executor: 'constant-vus', vus: 2, duration: '10m', exec: __ENV.FN } } };
export async function getting() { await pause(); try { http.get(__ENV.BASE + '/blocking'); } catch (e) {} }
export async function batching() { await pause(); try { http.batch([__ENV.BASE + '/blocking']); } catch (e) {} }
export async function sleeping() { await pause(); try { sleep(0.01); } catch (e) {} }
export function handleSummary() { return { [__ENV.OUT]: '{}' }; }
`;

test('a blocking call reached in an iteration ends the run, naming the call and its function', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'node-runner-refused-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const scriptPath = join(dir, 'blocking.js');
  await writeFile(scriptPath, BLOCKING);
  for (const [fn, call, instead] of [
    ['getting', 'http.get', /await http\.asyncRequest instead/],
    ['batching', 'http.batch', /await http\.asyncRequest instead/],
    ['sleeping', 'sleep()', /await a k6\/timers setTimeout instead/],
  ] as const) {
    const out = join(dir, `${fn}.json`);
    const { result, paths } = await runAgainstServer(t, scriptPath, { FN: fn, OUT: out });
    assertRefused(result, new RegExp(`^${call.replace(/[.()]/g, '\\$&')} in ${fn} blocks its VU`));
    assert.match(result.error!, instead);
    assert.ok(!paths.includes('/blocking'), `${call}: a refused call reached the server`);
    await assert.rejects(access(out), `${fn}: handleSummary ran after the refusal`);
  }
});

test('a blocking call reached in an async setup ends the run before any VU runs', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'node-runner-refused-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const scriptPath = join(dir, 'setup.js');
  await writeFile(
    scriptPath,
    `import http from 'k6/http';
export const options = { iterations: 1 };
export async function setup() { try { http.post(__ENV.BASE + '/blocking', '{}'); } catch (e) {} return {}; }
export default async function () { await http.asyncRequest('GET', __ENV.BASE + '/iteration'); }
`,
  );
  const { result, paths } = await runAgainstServer(t, scriptPath);
  assertRefused(result, /^http\.post in setup blocks its VU/);
  assert.deepEqual(paths, [], 'the refused call, or an iteration after it, reached the server');
});
