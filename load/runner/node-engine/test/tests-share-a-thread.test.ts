// VUs live in the runner's own thread, which outlives a test and may
// run several: one after another (a library caller's runs) or side by side
// (the parts of a distributed run started from one process). Each test's
// script must see its own test only: its __ENV, and the SharedArray its own
// data builds (k6 builds one per test), in setup and in every VU —
// never the array of a test before it or beside it.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { EXIT, runWithNodeEngine } from '../engine.ts';

const SCRIPT = `
import { SharedArray } from 'k6/data';
import { setTimeout } from 'k6/timers';
const plan = new SharedArray('plan', () => [__ENV.RUN]);
export const options = { scenarios: { s: { executor: 'per-vu-iterations', vus: 2, iterations: 3 } } };
export async function setup() {
  console.log('setup sees ' + plan[0] + ' ' + __ENV.RUN);
}
export default async function () {
  // Long enough that side-by-side tests interleave their iterations.
  await new Promise((resolve) => setTimeout(resolve, 20));
  console.log('VU ' + __VU + ' sees ' + plan[0] + ' ' + __ENV.RUN);
}
`;

async function scriptIn(t: TestContext): Promise<{ dir: string; scriptPath: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'node-runner-tests-share-a-thread-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const scriptPath = join(dir, 'script.js');
  await writeFile(scriptPath, SCRIPT);
  return { dir, scriptPath };
}

async function runAndRead(dir: string, scriptPath: string, runName: string): Promise<string[]> {
  const consoleOutput = join(dir, `${runName}.log`);
  const result = await runWithNodeEngine({ scriptPath, env: { RUN: runName }, consoleOutput, progress: () => {} });
  assert.equal(result.exitCode, EXIT.ok, result.error ?? '');
  return (await readFile(consoleOutput, 'utf8')).split('\n').filter((l) => l !== '');
}

function assertOwnTest(lines: string[], runName: string): void {
  assert.equal(lines.length, 7, `test ${runName}: setup and 2 × 3 iterations log once each:\n${lines.join('\n')}`);
  for (const line of lines) assert.match(line, new RegExp(`sees ${runName} ${runName}$`), `test ${runName}`);
}

test('a test after another in the same thread builds its own SharedArray and reads its own __ENV', async (t) => {
  const { dir, scriptPath } = await scriptIn(t);
  for (const runName of ['first', 'second']) assertOwnTest(await runAndRead(dir, scriptPath, runName), runName);
});

test('two tests side by side in the same thread each see their own SharedArray and __ENV', async (t) => {
  const { dir, scriptPath } = await scriptIn(t);
  const [a, b] = await Promise.all([runAndRead(dir, scriptPath, 'left'), runAndRead(dir, scriptPath, 'right')]);
  assertOwnTest(a, 'left');
  assertOwnTest(b, 'right');
});
