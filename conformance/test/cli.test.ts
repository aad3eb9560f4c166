// `fleetproof conform` as a vendor runs it: a child process of bin/fleetproof.js,
// configured by flags, FLEETPROOF_* variables and a config file, with the
// exit codes INTERPRETING.md promises.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startReferenceTarget, type ReferenceTarget } from './reference-target.ts';
import { underPty } from '../../client/test/pty.ts';

const BIN = fileURLToPath(new URL('../../bin/fleetproof.js', import.meta.url));
let target: ReferenceTarget;
let dir: string;
let keyFile: string;

function conform(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'conform', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

before(async () => {
  target = await startReferenceTarget();
  dir = await mkdtemp(join(tmpdir(), 'fleetproof-cli-'));
  keyFile = join(dir, 'signing-key.jwk.json');
  await writeFile(keyFile, JSON.stringify(target.key.jwk));
});
after(async () => {
  await target.close();
  await rm(dir, { recursive: true, force: true });
});

describe('fleetproof conform', () => {
  it('could not run (exit 2) without a target, or when the target is unreachable', async () => {
    const none = await conform([], { FLEETPROOF_TARGET: '', FLEETPROOF_CONFIG: '' });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /could not run: no target/);
    const unreachable = await conform(['--target', 'http://127.0.0.1:1', '--key', keyFile]);
    assert.equal(unreachable.code, 2);
    assert.match(unreachable.stderr, /could not run: the target \S+ does not answer .*\[FP_ERR_PREFLIGHT\]$/m);
    // The stable code a script matches on ends each such line (docs/exit-codes.md).
    const noKey = await conform(['--target', 'http://127.0.0.1:1', '--key', join(dir, 'missing.json')]);
    assert.equal(noKey.code, 2);
    assert.match(noKey.stderr, /could not run: signing key: .*\[FP_ERR_CREDENTIALS\]$/m);
  });

  it('qualifies a selection of the reference, configured by file, environment and flags', async () => {
    const config = join(dir, 'conform.json');
    const out = join(dir, 'run');
    await writeFile(config, JSON.stringify({ target: 'http://127.0.0.1:1', categories: ['batch'], timeout_ms: 20000 }));
    const run = await conform(['--category', 'operations', '--report-dir', out], {
      FLEETPROOF_CONFIG: config,
      FLEETPROOF_TARGET: target.url,
      FLEETPROOF_KEY: keyFile,
    });
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.match(run.stdout, /^-- concurrent cases$/m, 'a line per stage when not a TTY');
    assert.doesNotMatch(run.stdout, /^pass /m, 'passing cases are counted, not listed, when not a TTY');
    assert.doesNotMatch(run.stdout, /\x1b\[/, 'no terminal control sequences in a log');
    assert.match(run.stdout, /verdict: QUALIFIED \(partial run: not a certification\)/);
    const result = JSON.parse(await readFile(join(out, 'result.json'), 'utf8'));
    assert.deepEqual(result.selection.categories, ['operations'], 'the flag wins over the file');
    assert.equal(result.config.timeout_ms, 20000, 'the file fills what flags and environment leave open');
    assert.equal(result.target.url, target.url, 'the environment wins over the file');
    assert.ok(!JSON.stringify(result).includes(String(target.key.jwk.d)), 'the private key appears nowhere in the result');
  });

  it('draws a progress bar with the time left on a terminal, and prints failures above it', async () => {
    const run = await underPty([process.execPath, BIN, 'conform', '--category', 'operations', '--report-dir', join(dir, 'tty')], {
      env: { FLEETPROOF_TARGET: target.url, FLEETPROOF_KEY: keyFile, FLEETPROOF_CONFIG: '' },
      timeoutMs: 240_000,
    });
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /\r\x1b\[J\[[=>-]{20}\] +\d+\/\d+ /, 'the bar, redrawn in place');
    assert.match(run.output, /\[={20}\] +(\d+)\/\1 /, 'a full bar at the end');
    assert.match(run.output, /, ETA \d+s/, 'the time left while cases remain');
    assert.doesNotMatch(run.output, /^pass /m, 'passing cases are counted in the bar, not listed');
    assert.match(run.output, /verdict: QUALIFIED/);
  });
});
