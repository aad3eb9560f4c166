// `fleetproof load --report-dir run`, a folder named relative to where the
// user stands, runs under k6 as under the Node runner. k6 opens a relative
// path from its script's folder, not the working directory, so the run plan
// it reads is handed over by its absolute path; the reports land in the
// folder the user named, and the plan (it holds bearer tokens) is gone after.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { startTarget } from './in-process-target.ts';
import { k6ForTests } from './k6-for-tests.ts';

const BIN = fileURLToPath(new URL('../../bin/fleetproof.js', import.meta.url));
const k6 = k6ForTests();

function fleetproofLoad(args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('FLEETPROOF_') || k.startsWith('FLEETPROOF_TEST')),
  );
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, 'load', ...args], { cwd, env, timeout: 240_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}

for (const engine of ['k6', 'node'] as const) {
  test(
    `under ${engine === 'k6' ? 'k6' : 'the Node runner'}, a report folder named relative to the working directory`,
    { skip: engine === 'k6' ? k6.skip : false },
    async (t) => {
      if (engine === 'k6') k6.version();
      const target = await startTarget(new MemoryStore());
      t.after(() => target.close());
      const args = ['--target', target.url, '--key', target.keyPath, '--profile', 'smoke', '--phases', 'concurrent_routes'];
      const run = await fleetproofLoad([...args, '--engine', engine, '--quiet', '--report-dir', 'run'], target.dir);
      // It ran and judged: a loaded machine may cut the phase, which this profile reads as could-not-judge, never could-not-run.
      const summary = JSON.parse(await readFile(join(target.dir, 'run', 'summary.json'), 'utf8')) as { verdict: string; reasons: string[] };
      assert.notEqual(summary.verdict, 'could-not-run', run.output);
      assert.ok(!summary.reasons.some((r) => r.startsWith('the load engine')), run.output);
      assert.ok(existsSync(join(target.dir, 'run', 'journal.ndjson')), 'the journal is in the folder named');
      assert.ok(!existsSync(join(target.dir, 'run', 'run-plan.json')), 'the run plan, which holds tokens, is removed');
    },
  );
}
