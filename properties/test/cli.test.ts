// `fleetproof properties` end to end: exit 0 when the properties hold, 1 with
// a counterexample that result.json records and `--seed --path` replays
// exactly, 2 when the suites cannot run or, under a nemesis that injected
// nothing, judged nothing; result.json always matches its published schema.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { RUN_ID_PATTERN } from '../../client/run-id.ts';
import { writeSigningKeys } from '../../contract/tokens.ts';
import { startEmbeddedReference } from '../../reference/embedded-reference.ts';
import { documentProblems, schemaUrl } from '../../reports/test/schema-validation.ts';
import type { ResultDocument } from '../runner/result-document.ts';
import { fleetproofProperties } from './cli-process.ts';
import { underPty } from '../../client/test/pty.ts';

/** Splits a printed command into words, honouring single quotes. */
function shellWords(command: string): string[] {
  return [...command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!));
}

describe('fleetproof properties', () => {
  let dir: string;
  let validate: (doc: unknown) => boolean;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fleetproof-properties-'));
    validate = (doc) => {
      const problems = documentProblems(schemaUrl('properties-result.v1.schema.json'), doc);
      assert.equal(problems, null);
      return problems === null;
    };
  });
  after(() => rm(dir, { recursive: true, force: true }));

  async function result(out: string): Promise<ResultDocument> {
    const doc = JSON.parse(await readFile(join(out, 'result.json'), 'utf8')) as ResultDocument;
    validate(doc);
    return doc;
  }

  it('exits 0 when the properties hold, printing the seed', async () => {
    const out = join(dir, 'hold');
    const run = await fleetproofProperties([
      '--suite',
      'stale-cursor',
      '--suite',
      'no-overbooking',
      '--runs',
      '5',
      '--seed',
      '11',
      '--out',
      out,
    ]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /seed 11 \(given\)/);
    // In a log: the suites that hold are counted in one closing line, not listed, and nothing is drawn.
    assert.match(run.stdout, /^2 properties, 10 runs: 2 pass, 0 fail, 0 error in \d+s$/m);
    assert.doesNotMatch(run.stdout, /^(\[\d+\/\d+\] )?pass /m);
    assert.doesNotMatch(run.stdout, /\x1b\[/, 'no terminal control sequences in a log');
    const doc = await result(out);
    assert.deepEqual([doc.verdict, doc.exit_code, doc.suites.map((s) => s.status)], ['hold', 0, ['pass', 'pass']]);
    assert.match(run.stdout, /QUALIFIED: every property holds/);
    // One run id, printed and carried by every file of the run, as conform, load and certify do.
    assert.match(doc.run_id, RUN_ID_PATTERN);
    assert.match(run.stdout, new RegExp(`fleetproof properties ${doc.run_id} against`));
    // The same suites certify reports, under the same names.
    const junit = await readFile(join(out, 'junit.xml'), 'utf8');
    assert.match(junit, new RegExp(`<testsuites name="fleetproof properties ${doc.run_id}" tests="2" failures="0" errors="0"`));
    assert.match(junit, /<testcase name="stale-cursor" classname="fleetproof\.properties"/);
    const html = await readFile(join(out, 'report.html'), 'utf8');
    assert.match(html, /<div class="word">QUALIFIED<\/div>/);
    assert.ok(html.includes(`<dt>Run</dt><dd><code>${doc.run_id}</code></dd>`), 'report.html names the run');
    assert.ok((await readFile(join(out, 'report.md'), 'utf8')).includes(`- run: \`${doc.run_id}\``), 'report.md names the run');
  });

  it('exits 1 on a counterexample, and its seed and path replay the same script', async () => {
    const out = join(dir, 'fail');
    const env = { FLEETPROOF_ALLOW_DEFECTS: '1' };
    // A negative seed: the printed replay command must still parse.
    const args = ['--defect', 'settle-skip-fence', '--suite', 'idempotent-settlement', '--runs', '100', '--seed=-102'];
    const run = await fleetproofProperties([...args, '--out', out], env);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /^fail {2}idempotent-settlement +\d+ runs.*\n {2}idempotent-settlement: /m, 'the failure as it happens');
    const [suite] = (await result(out)).suites;
    assert.equal(suite!.violation?.property, 'idempotent-settlement');
    assert.match(run.stdout, new RegExp(`seed -102, path ${suite!.path!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.ok(run.stdout.includes(suite!.replay!.command), 'the replay command is printed');
    const again = join(dir, 'replay');
    // Run exactly the printed command (its words after `npx fleetproof properties`).
    const printed = shellWords(suite!.replay!.command);
    const replay = await fleetproofProperties([...printed.slice(printed.indexOf('properties') + 1), '--out', again], env);
    assert.equal(replay.code, 1, replay.stdout + replay.stderr);
    const [replayed] = (await result(again)).suites;
    assert.deepEqual(replayed!.counterexample, suite!.counterexample);
    assert.equal(replayed!.runs, 1, 'a replay runs the counterexample only');
  });

  it('draws a bar over the runs with the time left on a terminal', async () => {
    const bin = fileURLToPath(new URL('../../bin/fleetproof.js', import.meta.url));
    const suites = ['--suite', 'stale-cursor', '--suite', 'no-overbooking', '--runs', '5'];
    const run = await underPty([process.execPath, bin, 'properties', ...suites, '--report-dir', join(dir, 'tty')], {
      env: { FC_SEED: '', FC_PATH: '', FC_SUITE: '' },
      timeoutMs: 120_000,
    });
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /\r\x1b\[J\[[=>-]{20}\] [0-2]\/2 properties {2}\d+ pass, 0 fail, 0 error/, 'the bar, redrawn in place');
    assert.match(run.output, /\[[=>-]{20}\] 1\/2 properties .*, ETA \d+s/, 'the time left while suites remain');
    assert.match(run.output, /\[={20}\] 2\/2 properties {2}2 pass, 0 fail, 0 error/, 'a full bar at the end');
    assert.doesNotMatch(run.output, /^(\[\d+\/\d+\] )?pass /m, 'the suites that hold are counted in the bar, not listed');
    assert.match(run.output, /QUALIFIED: every property holds/);
  });

  it('derives and prints a seed in CI when none is given', async () => {
    const run = await fleetproofProperties(['--suite', 'circuit-behaviour', '--runs', '2', '--out', join(dir, 'ci')], {
      CI: 'true',
      GITHUB_RUN_ID: '4242',
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /seed -?[0-9]+ \(derived from GITHUB_RUN_ID=4242\)/);
  });

  it('cannot judge under a nemesis that injected no fault while the suites ran', async () => {
    // Before, the suites' pass stood: QUALIFIED for a run that saw no fault at all.
    const reference = await startEmbeddedReference();
    try {
      const out = join(dir, 'no-fault');
      const run = await fleetproofProperties([
        '--target',
        reference.url,
        '--key',
        reference.signingKeyPath,
        '--nemesis',
        'proxy',
        '--nemesis-interval',
        '1s/600s',
        '--suite',
        'stale-cursor',
        '--runs',
        '3',
        '--seed',
        '11',
        '--out',
        out,
      ]);
      assert.equal(run.code, 2, run.stdout + run.stderr);
      assert.match(run.stdout, /no fault was injected while the suites ran: they judged nothing under faults/);
      const doc = await result(out);
      assert.deepEqual([doc.verdict, doc.exit_code, doc.suites.map((s) => s.status)], ['error', 2, ['error']]);
    } finally {
      await reference.close();
    }
  });

  it('exits 2 when it cannot run: bad flags, or a target nobody serves', async () => {
    assert.equal((await fleetproofProperties(['--store', 'sqlite'])).code, 2);
    assert.equal((await fleetproofProperties(['--path', '1:2'])).code, 2);
    assert.equal((await fleetproofProperties(['--defect', 'settle-skip-fence'])).code, 2, 'defects need FLEETPROOF_ALLOW_DEFECTS=1');
    const keys = await writeSigningKeys(join(dir, 'keys'));
    const unreachable = await fleetproofProperties([
      '--target',
      'http://127.0.0.1:9',
      '--key',
      keys.signingKeyPath,
      '--out',
      join(dir, 'none'),
    ]);
    assert.equal(unreachable.code, 2, unreachable.stdout + unreachable.stderr);
    assert.match(
      unreachable.stderr,
      /^fleetproof properties: could not run: the target http:\/\/127\.0\.0\.1:9 does not answer \(ECONNREFUSED\): start it.* \[FP_ERR_PREFLIGHT\]$/m,
    );
  });
});
