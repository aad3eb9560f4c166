// The test runner on fixture files: results per test, a file's output kept
// for its failures only, each reason for skipping said once, the per-file
// timeout naming the test still running, the closing line and the JUnit
// report, the CPU time a file used, and the order files start in.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileFailed, runFile } from '../file-run.js';
import { existsSync } from 'node:fs';
import { failureText, progressLine, summaryText, writeJunit } from '../report.js';
import { LONGEST_FIRST, ROOT, selectFiles } from '../suite.js';

const fixture = (name: string) => join('scripts', 'test-runner', 'test', 'fixtures', `${name}.fixture.ts`);
const run = (name: string, fileTimeoutMs = 120_000) =>
  runFile({ file: fixture(name), root: ROOT, env: { ...process.env }, testTimeoutMs: 120_000, fileTimeoutMs, onChild: () => () => {} });

test('failures are reported with the file output; a passing file keeps its output to itself', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'fleetproof-runner-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const [mixed, quiet] = await Promise.all([run('mixed'), run('quiet')]);
  assert.deepEqual(
    mixed.tests.map((x) => [[...x.path, x.name].join(' › '), x.ok, x.skipped]),
    [
      ['group › passes', true, false],
      ['group › fails', false, false],
      ['skipped', true, true],
      ['skipped with a reason', true, true],
      ['skipped with the same reason', true, true],
    ],
  );
  assert.equal(fileFailed(mixed), true);
  assert.match(failureText(mixed), /✖ group › fails\n\s+AssertionError/);
  assert.match(failureText(mixed), /harness output: verdict NON-CONFORMANT/);
  assert.equal(fileFailed(quiet), false);
  const summary = summaryText([mixed, quiet], 1_000);
  assert.doesNotMatch(summary, /THRESHOLDS FAILED/, 'a passing file prints nothing of its own');
  assert.equal(summary.split('\n').at(-1), '2 passed, 1 failed');
  assert.deepEqual(
    summary.split('\n').filter((l) => l.includes('skipped: ')),
    ['  skipped: no tool on PATH (2 tests)'],
    'a reason for skipping is given once',
  );
  const junit = join(dir, 'junit.xml');
  await writeJunit(junit, [mixed, quiet]);
  const xml = await readFile(junit, 'utf8');
  assert.match(xml, /<testsuites tests="6" failures="1">/);
  assert.match(xml, /<testcase classname="[^"]*mixed.fixture.ts" name="group › fails"[^>]*><failure message="AssertionError/);
  assert.match(xml, /name="skipped"[^>]*><skipped\/>/);
});

test('a file that hangs is killed at the per-file timeout, naming the test that was running', async () => {
  // A timeout that falls while the child is still starting (a busy machine) names no test, rightly: the
  // timeout doubles until it falls on the hung test, which is what this test is about.
  let hung = await run('hangs', 3_000);
  for (let timeoutMs = 6_000; hung.timedOut?.length === 0 && timeoutMs <= 96_000; timeoutMs *= 2) hung = await run('hangs', timeoutMs);
  assert.deepEqual(hung.timedOut, ['never finishes']);
  assert.equal(fileFailed(hung), true);
  assert.match(failureText(hung), /per-file timeout\); still running: never finishes/);
  assert.equal(summaryText([hung], 1_000).split('\n').at(-1), '1 passed, 1 failed');
});

test('a file is credited with the CPU time its process used', { skip: !existsSync('/proc/self/stat') && 'no /proc here' }, async () => {
  const spins = await run('spins');
  assert.equal(fileFailed(spins), false, failureText(spins));
  assert.ok(spins.cpuMs !== undefined && spins.cpuMs >= 500, `credited ${spins.cpuMs} ms of CPU`);
  assert.match(progressLine(spins, 1, 1, 0, 1_000), new RegExp(`, ${(spins.cpuMs / 1000).toFixed(1)} CPU-s\\)`));
  assert.match(summaryText([spins], 1_000), new RegExp(`\\(test processes: ${(spins.cpuMs / 1000).toFixed(0)} CPU-s\\)`));
});

test('the longest files start first, and each one the list names exists', () => {
  const all = selectFiles([]);
  assert.deepEqual(all.slice(0, LONGEST_FIRST.length), LONGEST_FIRST);
  const rest = all.slice(LONGEST_FIRST.length);
  assert.deepEqual(rest, [...rest].sort(), 'the others in path order');
  assert.deepEqual(selectFiles(['variant/test/variants', 'draw-variant']), [
    'reference/variant/test/variants.test.ts',
    'reference/variant/test/variants-postgres.test.ts',
    'reference/variant/test/draw-variant.test.ts',
  ]);
});
