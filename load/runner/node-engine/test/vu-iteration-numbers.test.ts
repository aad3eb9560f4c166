// exec.vu.iterationInInstance numbers a VU's iterations from 0, as k6 does,
// on every path an iteration takes in the Node runner: a closed-model loop
// and an arrival-rate scenario's arrivals. Each VU's numbers run 0, 1, 2…
// with no gap.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { EXIT, runWithNodeEngine } from '../engine.ts';

const SCRIPT = `
import exec from 'k6/execution';
export const options = {
  scenarios: {
    looped: { executor: 'per-vu-iterations', vus: 1, iterations: 3, exec: 'say' },
    arrivals: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '500ms', preAllocatedVUs: 1, maxVUs: 1, exec: 'say', startTime: '200ms' },
  },
};
export async function say() {
  await Promise.resolve();
  console.log(exec.scenario.name + ' ' + exec.vu.idInTest + ' ' + exec.vu.iterationInInstance);
}
`;

test('every VU numbers its iterations from 0, looping and taking arrivals', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'node-runner-iteration-numbers-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const scriptPath = join(dir, 'script.js');
  await writeFile(scriptPath, SCRIPT);
  const consoleOutput = join(dir, 'console.log');
  const result = await runWithNodeEngine({ scriptPath, env: {}, consoleOutput, progress: () => {} });
  assert.equal(result.exitCode, EXIT.ok, result.error ?? '');
  const byVu = new Map<string, { scenarios: Set<string>; numbers: number[] }>();
  for (const line of (await readFile(consoleOutput, 'utf8')).split('\n').filter((l) => l !== '')) {
    const [scenario, vu, n] = line.split(' ') as [string, string, string];
    const entry = byVu.get(vu) ?? byVu.set(vu, { scenarios: new Set(), numbers: [] }).get(vu)!;
    entry.scenarios.add(scenario);
    entry.numbers.push(Number(n));
  }
  const seen = new Set([...byVu.values()].flatMap((e) => [...e.scenarios]));
  assert.deepEqual([...seen].sort(), ['arrivals', 'looped'], 'every path ran');
  for (const [vu, { numbers }] of byVu) {
    assert.deepEqual(
      numbers.slice().sort((a, b) => a - b),
      numbers.map((_, i) => i),
      `VU ${vu}: ${numbers.join(',')}`,
    );
  }
});
