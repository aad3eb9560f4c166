// Async VUs live in the runner's own thread, which outlives a test: a
// process may run one test after another there (fleetproof load does for
// each part of a run, and a library caller may for many). Whatever the
// first test's script built in its init context must not reach the second:
// k6's SharedArray is built once per test, so the second test's script gets
// the array its own data builds, never the one left from the test before.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { EXIT, runWithNodeEngine } from '../engine.ts';

const SCRIPT = `
import { SharedArray } from 'k6/data';
const plan = new SharedArray('plan', () => [__ENV.RUN]);
export const options = { scenarios: { s: { executor: 'per-vu-iterations', vus: 2, iterations: 1 } } };
export async function setup() {
  console.log('setup sees ' + plan[0]);
}
export default async function () {
  await Promise.resolve();
  console.log('VU ' + __VU + ' sees ' + plan[0]);
}
`;

test('a second test in the same thread builds its own SharedArray, for setup and for every async VU', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'node-runner-test-after-test-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const scriptPath = join(dir, 'script.js');
  await writeFile(scriptPath, SCRIPT);
  for (const runName of ['first', 'second']) {
    const consoleOutput = join(dir, `${runName}.log`);
    const result = await runWithNodeEngine({ scriptPath, env: { RUN: runName }, consoleOutput, progress: () => {} });
    assert.equal(result.exitCode, EXIT.ok, result.error ?? '');
    const lines = (await readFile(consoleOutput, 'utf8')).split('\n').filter((l) => l !== '');
    const seen = lines.map((l) => /sees (\w+)$/.exec(l)?.[1]);
    assert.equal(lines.length, 3, lines.join('\n'));
    assert.deepEqual(seen, [runName, runName, runName], `test ${runName}: ${lines.join(' | ')}`);
  }
});
