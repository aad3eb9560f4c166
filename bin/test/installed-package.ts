// The package as a user gets it: packed from a copy of this checkout, with
// one deliberate defect planted (npm pack runs prepack, which builds dist/),
// and installed into an empty folder from the npm cache `npm ci` filled, in a
// temporary folder the test file removes.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { repositoryFiles } from '../../scripts/test-runner/compiled-tree.js';
import { runCommand } from './commands.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** A certification of the embedded reference on a loaded 2-core machine, with room to spare (the runner gives these files longer limits). */
export const CERTIFY_MS = 900_000;
/** The most a conformance run of the served reference may take from the package. */
export const CONFORM_MS = 600_000;
/** Where the reference's deliberate defects live: development only, never in the package. */
export const DEFECTS_DIR = 'reference/defects';

export interface Installed {
  /** The temporary folder holding the tarball and the app. */
  work: string;
  tarball: string;
  /** The empty folder the package was installed into. */
  app: string;
  remove(): Promise<void>;
}

export async function packAndInstall(): Promise<Installed> {
  const work = await mkdtemp(join(tmpdir(), 'fleetproof-package-'));
  const remove = () => rm(work, { recursive: true, force: true });
  try {
    const source = join(work, 'source');
    for (const file of repositoryFiles(ROOT)) {
      mkdirSync(dirname(join(source, file)), { recursive: true });
      copyFileSync(join(ROOT, file), join(source, file));
    }
    // A deliberate defect, compiled and copied as the real ones would be, so
    // the tarball's check that none ships can fail whatever the checkout holds.
    mkdirSync(join(source, DEFECTS_DIR), { recursive: true });
    writeFileSync(join(source, DEFECTS_DIR, 'packing-probe.ts'), 'export const probe = 1;\n');
    writeFileSync(join(source, DEFECTS_DIR, 'packing-probe.json'), '{}\n');
    symlinkSync(join(ROOT, 'node_modules'), join(source, 'node_modules'));
    const packed = await runCommand('npm', ['pack', '--pack-destination', work], { cwd: source, timeoutMs: 300_000 });
    assert.equal(packed.code, 0, packed.output);
    const tarball = join(work, `fleetproof-${VERSION}.tgz`);
    const app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
    const installed = await runCommand('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
      cwd: app,
      timeoutMs: 300_000,
    });
    assert.equal(installed.code, 0, installed.output);
    return { work, tarball, app, remove };
  } catch (err) {
    await remove();
    throw err;
  }
}

/**
 * Certifies the embedded reference from the installed package, checks the
 * verdict and the reports it wrote, and returns what the command printed
 * and the run's folder.
 * Without `reportDir` the reports go where a user's go, one new run folder
 * under the app's reports/runs; with it, there (so runs beside it in the same
 * app do not blur which folder is whose). `env` adds to the environment the
 * command runs in.
 */
export async function certifyThere(
  app: string,
  args: string[],
  reportDir?: string,
  env: Record<string, string | undefined> = {},
): Promise<{ output: string; dir: string }> {
  const runs = join(app, 'reports', 'runs');
  const before = new Set(existsSync(runs) ? readdirSync(runs) : []);
  const flags = reportDir === undefined ? args : [...args, '--report-dir', reportDir];
  // As in a user's fresh folder: no PG_URL, so `--store postgres` starts the
  // package's own embedded server (and never touches the test run's server).
  const r = await runCommand('npx', ['fleetproof', 'certify', ...flags], {
    cwd: app,
    timeoutMs: CERTIFY_MS,
    env: { PG_URL: undefined, ...env },
  });
  assert.equal(r.code, 0, r.output);
  assert.match(r.output, /^QUALIFIED$/m);
  let dir = reportDir;
  if (dir === undefined) {
    const written = readdirSync(runs).filter((d) => !before.has(d));
    assert.equal(written.length, 1, `one run folder under reports/runs: ${written.join(', ')}`);
    dir = join(runs, written[0]!);
  }
  for (const file of ['report.html', 'report.md', 'junit.xml', 'result.json', 'bundle.json']) assert.ok(existsSync(join(dir, file)), file);
  return { output: r.output, dir };
}
