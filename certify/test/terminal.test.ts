// `fleetproof certify` as a user sees it. On a terminal (a real
// pseudo-terminal) each stage draws its bar with the time left, redrawn in
// place; in a log (a pipe, as in CI) nothing is drawn, and the properties and
// faults stages print no line per suite that holds or round that passed.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { underPty } from '../../client/test/pty.ts';

const BIN = fileURLToPath(new URL('../../bin/fleetproof.js', import.meta.url));
/** Four stages on a busy machine take minutes. */
const CERTIFY_MS = 480_000;
const ENV = { FLEETPROOF_TARGET: '', FLEETPROOF_KEY: '', FLEETPROOF_CONFIG: '', FC_SEED: '', FC_PATH: '', FC_SUITE: '' };
const dir = await mkdtemp(join(tmpdir(), 'fleetproof-certify-terminal-'));
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

/** The output between a stage's opening line and the next stage's. */
function stage(output: string, name: string): string {
  const from = output.search(new RegExp(`== stage \\d/\\d: ${name} `));
  assert.ok(from >= 0, `the ${name} stage opens`);
  const next = output.slice(from + 1).search(/== stage \d\/\d: /);
  return next < 0 ? output.slice(from) : output.slice(from, from + 1 + next);
}

describe('fleetproof certify', { concurrency: 2, timeout: CERTIFY_MS + 30_000 }, () => {
  it('on a terminal: a bar with the time left for every stage, redrawn in place', async () => {
    const run = await underPty([process.execPath, BIN, 'certify', '--report-dir', join(dir, 'tty')], { env: ENV, timeoutMs: CERTIFY_MS });
    assert.equal(run.code, 0, run.output);
    const redrawn = (line: string) => new RegExp(`\\r\\x1b\\[J${line}`);
    const bar = '\\[[=>-]{20}\\]';
    assert.match(stage(run.output, 'conformance'), redrawn(`${bar} +\\d+/\\d+ .*, ETA \\d+`), 'conformance');
    const properties = stage(run.output, 'properties');
    assert.match(properties, redrawn(`${bar} \\d/8 properties {2}\\d pass, 0 fail, 0 error.*, ETA \\d+`), 'properties');
    assert.match(properties, /\[={20}\] 8\/8 properties {2}8 pass/, 'the properties bar ends full');
    const faults = stage(run.output, 'faults');
    assert.match(faults, redrawn(`${bar} round 1 {2}\\d/8 properties {2}\\d+ faults? so far.*, ETA \\d+`), 'faults');
    assert.match(faults, /\r\x1b\[Jnemesis: proxy fault\r?\n/, 'the nemesis’s events above the bar');
    assert.match(stage(run.output, 'load'), /\r\x1b\[J.*\r?\n {2}\S+ +\[[=>-]{20}\] +\d+%/, 'load');
    assert.doesNotMatch(run.output, /^(\[\d+\/\d+\] )?pass /m, 'what holds is counted, not listed');
    assert.match(run.output, /^QUALIFIED\r?$/m);
  });

  it('in a log: nothing drawn, and no line per suite that holds or round that passed', async () => {
    const run = await piped(['certify', '--report-dir', join(dir, 'log')]);
    assert.equal(run.code, 0, run.output);
    assert.doesNotMatch(run.output, /\x1b\[/, 'no terminal control sequences in a log');
    assert.match(stage(run.output, 'properties'), /^8 properties, \d+ runs: 8 pass, 0 fail, 0 error in \d+/m);
    assert.doesNotMatch(run.output, /^(\[\d+\/\d+\] )?pass /m, 'no line per suite that holds');
    assert.doesNotMatch(run.output, /^faults: round /m, 'no line per round');
    assert.match(run.output, /^QUALIFIED$/m);
  });
});
