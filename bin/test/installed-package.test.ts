// The package as a user gets it: packed from a copy of this checkout (npm
// pack runs prepack, which builds dist/), installed into an empty folder
// from the npm cache `npm ci` filled, and run there with npx: certify on the
// memory store and on the embedded PostgreSQL, and load on real k6 when k6
// is on PATH. Runs from the repository (FROM_SOURCES), so it packs what the
// checkout holds rather than npm test's compiled tree.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { repositoryFiles } from '../../scripts/test-runner/compiled-tree.js';
import { runCommand, startCommand, type Started } from './commands.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const K6_DIR = join(process.env['HOME'] ?? '/root', '.cache', 'fleetproof-k6');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
let work = '';
let app = '';
let tarball = '';
const servers: Started[] = [];

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'fleetproof-package-'));
  const source = join(work, 'source');
  for (const file of repositoryFiles(ROOT)) {
    mkdirSync(dirname(join(source, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(source, file));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(source, 'node_modules'));
  const packed = await runCommand('npm', ['pack', '--pack-destination', work], { cwd: source, timeoutMs: 240_000 });
  assert.equal(packed.code, 0, packed.output);
  tarball = join(work, `fleetproof-${version}.tgz`);
  app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
  const installed = await runCommand('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
    cwd: app,
    timeoutMs: 240_000,
  });
  assert.equal(installed.code, 0, installed.output);
});

after(async () => {
  for (const server of servers) server.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

test('the package holds the compiled program, not its tests, fixtures or runs', async () => {
  const listed = await runCommand('tar', ['tzf', tarball], { cwd: work, timeoutMs: 60_000 });
  const files = listed.output.split('\n').filter(Boolean);
  assert.ok(files.includes('package/dist/bin/fleetproof.js'));
  assert.ok(files.includes('package/dist/cli/main.js'));
  assert.ok(files.includes('package/dist/load/scale.js'), 'the k6 scripts ship');
  assert.ok(files.includes('package/dist/contract/openapi.yaml'));
  assert.deepEqual(
    files.filter((f) => /\/test\/|\/fixtures\/|reports\/runs|^package\/scripts\/|\.test\.[jt]s$/.test(f)),
    [],
  );
  assert.deepEqual(
    files.filter((f) => f.endsWith('.ts') && !f.endsWith('.case.ts')),
    [],
    'only the case sources the runner lints ship as TypeScript',
  );
  const manifest = JSON.parse(readFileSync(join(app, 'node_modules', 'fleetproof', 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  assert.equal(manifest.dependencies['tsx'], undefined, 'tsx is for development only');
});

test('npx fleetproof --version names the version', async () => {
  const r = await runCommand('npx', ['fleetproof', '--version'], { cwd: app, timeoutMs: 60_000 });
  assert.equal(r.code, 0, r.output);
  assert.match(r.output, new RegExp(`^fleetproof ${version.replace(/\./g, '\\.')} `));
});

/** The one run folder a run wrote under the working directory's reports/runs/. */
function runFolders(): string[] {
  const runs = join(app, 'reports', 'runs');
  return existsSync(runs) ? readdirSync(runs) : [];
}

for (const store of ['memory', 'postgres']) {
  test(`npx fleetproof certify --store ${store} qualifies the embedded reference and writes its reports here`, async () => {
    const before = new Set(runFolders());
    const r = await runCommand('npx', ['fleetproof', 'certify', '--store', store], { cwd: app, timeoutMs: 290_000 });
    assert.equal(r.code, 0, r.output);
    assert.match(r.output, /^QUALIFIED$/m);
    const written = runFolders().filter((d) => !before.has(d));
    assert.equal(written.length, 1, `one run folder under reports/runs: ${written.join(', ')}`);
    for (const file of ['report.html', 'report.md', 'junit.xml', 'result.json', 'bundle.json'])
      assert.ok(existsSync(join(app, 'reports', 'runs', written[0]!, file)), file);
  });
}

test('npx fleetproof load --engine k6 runs the shipped k6 scripts', async (t) => {
  const path = `${K6_DIR}${delimiter}${process.env['PATH'] ?? ''}`;
  if (!existsSync(join(K6_DIR, 'k6'))) return t.skip(`no k6 at ${K6_DIR}`);
  const server = startCommand('npx', ['fleetproof', 'serve', '--store', 'memory', '--port', '0'], { cwd: app });
  servers.push(server);
  const url = (await server.line(/^listening on (\S+)/, 120_000))[1]!;
  const key = (await server.line(/^signing key: (\S+)/, 10_000))[1]!;
  const r = await runCommand(
    'npx',
    ['fleetproof', 'load', '--target', url, '--key', key, '--engine', 'k6', '--profile', 'smoke', '--report-dir', join(work, 'load')],
    { cwd: app, timeoutMs: 290_000, env: { PATH: path } },
  );
  assert.equal(r.code, 0, r.output);
  assert.match(r.output, /engine k6/i);
  assert.ok(existsSync(join(work, 'load', 'report.html')));
});
