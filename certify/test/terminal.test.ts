// `fleetproof certify` on a terminal (a real pseudo-terminal): each stage
// draws its bar with the time left, redrawn in place.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { existsSync } from 'node:fs';
import { after, it } from 'node:test';
import { underPty } from '../../client/test/pty.ts';
import { BIN, CERTIFY_MS, ENV, stage } from './certify-output.ts';

const dir = await mkdtemp(join(tmpdir(), 'fleetproof-certify-terminal-'));
after(() => rm(dir, { recursive: true, force: true }));

/** PATH without k6: the load stage then runs on the Node runner, whose bar this test reads (k6 draws its own). */
const withoutK6 = (process.env['PATH'] ?? '')
  .split(delimiter)
  .filter((dir) => dir !== '' && !existsSync(join(dir, 'k6')))
  .join(delimiter);

it('on a terminal: a bar with the time left for every stage, redrawn in place', { timeout: CERTIFY_MS + 10_000 }, async () => {
  const run = await underPty([process.execPath, BIN, 'certify', '--report-dir', join(dir, 'tty')], {
    env: { ...ENV, PATH: withoutK6 },
    timeoutMs: CERTIFY_MS,
  });
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
