// Ctrl-C on `fleetproof load` (SIGINT to its process group) stops the load as
// the end of its budget does: the run ends could not run, saying it was
// stopped, and still audits the registry, retires the run's records and
// writes its report, and the plan file that holds the run's bearer tokens is
// gone. Node's default would end the process with all of that undone.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { startTarget } from './in-process-target.ts';

const BIN = fileURLToPath(new URL('../../bin/fleetproof.js', import.meta.url));

test('SIGINT to a load run: could not run, audited, retired, no plan file left', { timeout: 180_000 }, async (t) => {
  const target = await startTarget(new MemoryStore());
  t.after(() => target.close());
  const dir = join(target.dir, 'run');
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('FLEETPROOF_') || k.startsWith('FLEETPROOF_TEST')),
  );
  const args = ['load', '--target', target.url, '--key', target.keyPath, '--engine', 'node', '--quiet', '--report-dir', dir];
  const child = spawn(process.execPath, [BIN, ...args], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // Once a phase has journalled its start, the seed is in and the load under way.
  for (let waited = 0; waited < 120_000; waited += 100) {
    const journal = await readFile(join(dir, 'journal.ndjson'), 'utf8').catch(() => '');
    if (/"k":"phase"/.test(journal) || child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(child.exitCode, null, `the run ended before it was stopped:\n${output}`);
  process.kill(-child.pid!, 'SIGINT');
  assert.equal(await exited, 2, output);
  assert.match(output, /SIGINT, stopping the load; the audit and the retirement still run/);
  const summary = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8')) as {
    verdict: string;
    reasons: string[];
    audit: unknown;
    retirement: unknown;
  };
  assert.equal(summary.verdict, 'could-not-run');
  assert.match(summary.reasons[0]!, /^the run was stopped by SIGINT before it ended; outstanding: /);
  // The stop cut the phases it names, the rate-driven ones too: none missed a budget or made no requests of its own.
  assert.deepEqual(
    summary.reasons.filter((r) => /not finished within its|made no requests|checks failed/.test(r)),
    [],
  );
  assert.ok(summary.audit !== null && summary.retirement !== null, 'audited and retired');
  assert.ok(existsSync(join(dir, 'report.html')), 'the report is written');
  assert.ok(!existsSync(join(dir, 'run-plan.json')), 'the plan, which holds tokens, is removed');
});
