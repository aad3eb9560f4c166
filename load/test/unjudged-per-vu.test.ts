// Whether an iteration got an answer that leaves its outcome open is kept
// per VU (load/lib/registry.js): under k6 each VU has its own copy of the
// module, but the Node runner's async VUs share one, and there one VU's
// indeterminate answer must neither excuse another VU's failed check nor
// outlive the iteration it came in. The same script runs on both engines.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { findK6 } from '../runner/engines.ts';
import { runWithNodeEngine } from '../runner/node-engine/engine.ts';

// An absolute path: k6 takes no file: URL in an import.
const REGISTRY_JS = fileURLToPath(new URL('../lib/registry.js', import.meta.url));
const k6 = findK6();
if (!k6) console.log('notice: k6 is not on PATH; the script runs on the Node runner only (.ci/run installs k6)');

// VU 1 marks its first iteration; both VUs then wait side by side and say what they see.
const SCRIPT = `
import exec from 'k6/execution';
import { setTimeout } from 'k6/timers';
import { markUnjudgeable, unjudgeableThisIteration } from '${REGISTRY_JS}';
export const options = { scenarios: { s: { executor: 'per-vu-iterations', vus: 2, iterations: 2, maxDuration: '60s' } } };
export default async function () {
  const vu = exec.vu.idInTest;
  const iteration = exec.vu.iterationInInstance;
  if (vu === 1 && iteration === 0) markUnjudgeable();
  await new Promise((resolve) => setTimeout(resolve, 100));
  console.log('vu ' + vu + ' iteration ' + iteration + ': ' + (unjudgeableThisIteration() ? 'open' : 'judged'));
}
`;

const EXPECTED = ['vu 1 iteration 0: open', 'vu 1 iteration 1: judged', 'vu 2 iteration 0: judged', 'vu 2 iteration 1: judged'];

function runK6(scriptPath: string, consoleOutput: string): Promise<number | null> {
  const child = spawn('k6', ['run', '-q', '--log-format', 'raw', '--console-output', consoleOutput, scriptPath], { stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
}

const linesOf = async (file: string) =>
  (await readFile(file, 'utf8'))
    .split('\n')
    .filter((l) => l !== '')
    .sort();

test('an indeterminate answer leaves open its own VU and iteration only, on each engine', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'unjudged-per-vu-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const scriptPath = join(dir, 'script.js');
  await writeFile(scriptPath, SCRIPT);

  const node = await runWithNodeEngine({ scriptPath, env: {}, consoleOutput: join(dir, 'node.log'), progress: () => {} });
  assert.equal(node.error, null);
  assert.deepEqual(await linesOf(join(dir, 'node.log')), EXPECTED, 'node');
  if (k6) {
    assert.equal(await runK6(scriptPath, join(dir, 'k6.log')), 0, 'k6 ran the script');
    assert.deepEqual(await linesOf(join(dir, 'k6.log')), EXPECTED, 'k6');
  }
});
