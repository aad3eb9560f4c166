// The packed package installed into an empty folder (installed-package.ts):
// what it holds, --version, `npx fleetproof certify` of the embedded
// reference (its output as a log shows it: nothing drawn, no line per suite
// that holds; its run qualified, signed and tamper-evident, rendering at
// phone and desktop widths: certify/test/qualified-run.ts; its load stage on
// the k6 scripts the package ships, when k6 is at ~/.cache/fleetproof-k6),
// and `npx fleetproof serve --store postgres` on the package's own embedded
// PostgreSQL, qualified by `npx fleetproof conform`: the same served
// reference a PostgreSQL certification starts as its child (its stages on
// PostgreSQL are tested from the sources, certify/stages/test/).
// Packed once for all of them; the certification and the served PostgreSQL
// run side by side (each mostly waits: on its slow cases, its timed load
// phases, its fault rounds), each with its own report folder. Runs from the repository
// (FROM_SOURCES), so it packs what the checkout holds.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { stage } from '../../certify/test/certify-output.ts';
import { assertQualifiedRun } from '../../certify/test/qualified-run.ts';
import { runCommand, startCommand } from './commands.ts';
import type { CertificationResult } from '../../reports/schemas/certification-result.ts';
import { CERTIFY_MS, CONFORM_MS, certifyThere, packAndInstall, DEFECTS_DIR, VERSION, type Installed } from './installed-package.ts';

const K6_DIR = join(process.env['HOME'] ?? '/root', '.cache', 'fleetproof-k6');
let installed: Installed;

before(async () => {
  installed = await packAndInstall();
});

after(async () => {
  await installed?.remove();
});

test('the package holds the compiled program, not its tests, fixtures, deliberate defects or runs', async () => {
  const listed = await runCommand('tar', ['tzf', installed.tarball], { cwd: installed.work, timeoutMs: 60_000 });
  const files = listed.output.split('\n').filter(Boolean);
  for (const shipped of [
    'dist/bin/fleetproof.js',
    'dist/cli/main.js',
    'dist/load/scale.js',
    'dist/contract/openapi.yaml',
    'dist/docs/exit-codes.md',
  ])
    assert.ok(files.includes(`package/${shipped}`), shipped);
  assert.deepEqual(
    files.filter((f) => /\/test\/|\/fixtures\/|reports\/runs|^package\/scripts\/|\.test\.[jt]s$/.test(f)),
    [],
  );
  assert.deepEqual(
    files.filter((f) => f.startsWith(`package/dist/${DEFECTS_DIR}/`)),
    [],
    'no deliberate defect ships, not even the one planted in the packed copy',
  );
  assert.deepEqual(
    files.filter((f) => f.endsWith('.ts') && !f.endsWith('.case.ts')),
    [],
    'only the case sources the runner lints ship as TypeScript',
  );
  const manifest = JSON.parse(readFileSync(join(installed.app, 'node_modules', 'fleetproof', 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  assert.equal(manifest.dependencies['tsx'], undefined, 'tsx is for development only');
});

test('npx fleetproof --version names the version', async () => {
  const r = await runCommand('npx', ['fleetproof', '--version'], { cwd: installed.app, timeoutMs: 60_000 });
  assert.equal(r.code, 0, r.output);
  assert.match(r.output, new RegExp(`^fleetproof ${VERSION.replace(/\./g, '\\.')} `));
});

describe('the package certifies and serves', { concurrency: true }, () => {
  test(
    'npx fleetproof certify qualifies the embedded reference, signed and tamper-evident, and writes its reports here; in a log it draws nothing and lists no suite or round that held',
    { timeout: CERTIFY_MS + 10_000 },
    async () => {
      const k6 = existsSync(join(K6_DIR, 'k6'));
      const env = k6 ? { PATH: `${K6_DIR}${delimiter}${process.env['PATH'] ?? ''}` } : {};
      const { output, dir } = await certifyThere(installed.app, [], undefined, env);
      await assertQualifiedRun(dir, installed.work);
      if (k6) {
        const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as CertificationResult;
        const load = result.stages.find((s) => s.name === 'load');
        assert.equal(load?.figures['engine'], 'k6', 'with k6 on PATH the load stage runs the k6 scripts the package ships');
      }
      assert.doesNotMatch(output, /\x1b\[/, 'no terminal control sequences in a log');
      assert.match(stage(output, 'properties'), /^8 properties, \d+ runs: 8 pass, 0 fail, 0 error in \d+/m);
      assert.doesNotMatch(output, /^(\[\d+\/\d+\] )?pass /m, 'no line per suite that holds');
      assert.doesNotMatch(output, /^faults: round /m, 'no line per round');
    },
  );

  test(
    "npx fleetproof serve --store postgres serves the reference on the package's own embedded PostgreSQL, and npx fleetproof conform qualifies it",
    { timeout: CONFORM_MS + 3 * 60_000 },
    async () => {
      // As in a user's fresh folder: no PG_URL, so the package starts its own server (never the test run's).
      const serve = startCommand('npx', ['fleetproof', 'serve', '--store', 'postgres', '--port', '0'], {
        cwd: installed.app,
        env: { PG_URL: undefined },
      });
      let stopped = false;
      try {
        const [, url] = await serve.line(/^listening on (http:\/\/\S+)$/, 120_000);
        const [, key] = await serve.line(/^signing key: (\S+)$/, 10_000);
        const commands = serve.commands();
        assert.ok(commands.includes('postgres'), `an embedded PostgreSQL runs under serve: ${commands.join(', ')}`);
        const r = await runCommand(
          'npx',
          ['fleetproof', 'conform', '--target', url!, '--key', key!, '--report-dir', join(installed.work, 'postgres-run')],
          { cwd: installed.app, timeoutMs: CONFORM_MS },
        );
        assert.equal(r.code, 0, r.output);
        assert.match(r.output, /^verdict: QUALIFIED$/m);
        assert.ok(existsSync(join(installed.work, 'postgres-run', 'report.html')), 'report.html');
      } finally {
        stopped = await serve.stop(30_000);
      }
      assert.ok(stopped, 'serve and its embedded PostgreSQL are gone after SIGTERM');
    },
  );
});
