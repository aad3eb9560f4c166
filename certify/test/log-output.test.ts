// `fleetproof certify` in a log (a pipe, as in CI): nothing is drawn, and the
// properties and faults stages print no line per suite that holds or round
// that passed.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { BIN, CERTIFY_MS, ENV, stage } from './certify-output.ts';

const dir = await mkdtemp(join(tmpdir(), 'fleetproof-certify-log-'));
after(() => rm(dir, { recursive: true, force: true }));

function piped(args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...ENV }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), CERTIFY_MS);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

it('in a log: nothing drawn, and no line per suite that holds or round that passed', { timeout: CERTIFY_MS + 10_000 }, async () => {
  const run = await piped(['certify', '--report-dir', join(dir, 'log')]);
  assert.equal(run.code, 0, run.output);
  assert.doesNotMatch(run.output, /\x1b\[/, 'no terminal control sequences in a log');
  assert.match(stage(run.output, 'properties'), /^8 properties, \d+ runs: 8 pass, 0 fail, 0 error in \d+/m);
  assert.doesNotMatch(run.output, /^(\[\d+\/\d+\] )?pass /m, 'no line per suite that holds');
  assert.doesNotMatch(run.output, /^faults: round /m, 'no line per round');
  assert.match(run.output, /^QUALIFIED$/m);
});
