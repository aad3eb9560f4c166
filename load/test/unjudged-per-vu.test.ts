// Whether an iteration got an answer that leaves its outcome open is kept
// per VU (load/lib/registry.js): under k6 each VU has its own copy of the
// module, but the Node runner's VUs share one, and there one VU's
// indeterminate answer must neither excuse another VU's failed check nor
// outlive the iteration it came in. The same script runs on both engines.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runWithNodeEngine } from '../runner/node-engine/engine.ts';
import { k6ForTests } from './k6-for-tests.ts';

// An absolute path: k6 takes no file: URL in an import.
const REGISTRY_JS = fileURLToPath(new URL('../lib/registry.js', import.meta.url));
const k6 = k6ForTests();

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

for (const engine of ['node', 'k6'] as const) {
  test(
    `an indeterminate answer leaves open its own VU and iteration only, on ${engine}`,
    { skip: engine === 'k6' ? k6.skip : false },
    async (t) => {
      if (engine === 'k6') k6.version();
      const dir = await mkdtemp(join(tmpdir(), 'unjudged-per-vu-'));
      t.after(() => rm(dir, { recursive: true, force: true }));
      const scriptPath = join(dir, 'script.js');
      await writeFile(scriptPath, SCRIPT);
      const consoleOutput = join(dir, 'console.log');
      if (engine === 'node')
        assert.equal((await runWithNodeEngine({ scriptPath, env: {}, consoleOutput, progress: () => {} })).error, null);
      else assert.equal(await runK6(scriptPath, consoleOutput), 0, 'k6 ran the script');
      assert.deepEqual(await linesOf(consoleOutput), EXPECTED);
    },
  );
}
