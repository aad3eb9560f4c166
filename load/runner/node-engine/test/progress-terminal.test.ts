// The Node runner's progress on a terminal, under a real pseudo-terminal:
// a block redrawn in place with a line per scenario showing, as k6 does, its
// bar, the rate it runs at against the rate asked for, its VUs and its
// dropped iterations.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { underPty } from '../../../../client/test/pty.ts';

const RUNNER = fileURLToPath(new URL(`./run-on-terminal.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url));
const LOADER = import.meta.url.endsWith('.ts') ? ['--import', 'tsx'] : [];

const SCRIPT = `import { setTimeout } from 'k6/timers';
export const options = {
  scenarios: {
    steady: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '3s', preAllocatedVUs: 2, maxVUs: 4 },
    closed: { executor: 'shared-iterations', vus: 2, iterations: 6 },
  },
};
export default async function () {
  await new Promise((resolve) => setTimeout(resolve, 20));
}
`;

test('a line per scenario with its bar, rate, VUs and dropped iterations, redrawn in place', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'node-runner-tty-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const script = join(dir, 'script.js');
  await writeFile(script, SCRIPT);
  const run = await underPty([process.execPath, ...LOADER, RUNNER, script], { timeoutMs: 120_000 });
  assert.equal(run.code, 0, run.output);
  assert.match(run.output, /\x1b\[2A\r\x1b\[J/, 'the three lines are redrawn in place');
  // Each redraw as lines of its own.
  const plain = run.output.replace(/\x1b\[\d*[AJK]/g, '\n').replace(/\r/g, '');
  assert.match(plain, /^running \d+s, \d\/2 scenarios done, \d+ VUs, \d+ requests/m);
  assert.match(plain, /^ {2}steady +\[[=>-]{20}\] +\d+% {2}[\d.]+\/s of 20\.0\/s {2}VUs \d\/4 {2}\d+ iterations {2}\d+ dropped/m);
  assert.match(plain, /^ {2}closed +\[={20}\] 100% {2}VUs 0\/2 {2}6 iterations {2}0 dropped {2}done$/m, 'a finished scenario says so');
  assert.match(plain, /^ {2}steady +\[={20}\] 100% .* done$/m, 'each scenario ends full');
});
