// The CI recipes in docs/ci run as written: the test reads each recipe's
// steps and runs them in a scratch directory, with three stand-ins so it stays
// quick and self-contained: `npx fleetproof` is this checkout (the install step
// is checked, not run), port 8080 is a free port, and `certify` is one
// conformance case (`conform --case`), which reads the same FLEETPROOF_*
// settings and writes the same junit.xml and report.html. Then the files the
// recipe publishes must be there.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { parse } from 'yaml';

const BIN = fileURLToPath(new URL('../../bin/fleetproof.js', import.meta.url));
const docs = (name: string) => fileURLToPath(new URL(`../../docs/ci/${name}`, import.meta.url));
const SHORT_CASE = 'routing/assignment-fields-come-from-their-sources';
const INSTALL = 'npm install --no-save fleetproof';

interface Recipe {
  env: Record<string, string>;
  /** Shell scripts, in order, each run as its own step. */
  steps: string[];
  install: string[];
  junit: string;
  report: string;
}

interface GithubStep {
  name?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string>;
}

function githubRecipe(text: string): Recipe {
  const job = (parse(text) as { jobs: Record<string, { env: Record<string, string>; steps: GithubStep[] }> }).jobs['certify']!;
  const runs = job.steps.filter((s) => s.run !== undefined).map((s) => s.run!.trim());
  const using = (action: string) => job.steps.find((s) => s.uses?.startsWith(action))?.with ?? {};
  return {
    env: job.env,
    install: runs.filter((r) => r.startsWith('npm install')),
    steps: runs.filter((r) => !r.startsWith('npm install')),
    junit: using('mikepenz/action-junit-report')['report_paths']!,
    report: using('actions/upload-artifact')['path']!,
  };
}

function gitlabRecipe(text: string): Recipe {
  const job = (
    parse(text) as Record<
      string,
      { variables: Record<string, string>; script: string[]; artifacts: { paths: string[]; reports: { junit: string } } }
    >
  )['fleetproof']!;
  return {
    env: job.variables,
    install: job.script.filter((l) => l.startsWith('npm install')),
    // GitLab runs the script's lines in one shell.
    steps: [job.script.filter((l) => !l.startsWith('npm install')).join('\n')],
    junit: job.artifacts.reports.junit,
    report: job.artifacts.paths[0]!,
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `npx fleetproof …` as this checkout; `certify` shortened to one conformance case. */
const SHIM = `npx() {
  [ "$1" = fleetproof ] || { echo "the recipe runs npx $1" >&2; return 2; }
  shift
  if [ "$1" = certify ]; then shift; set -- conform --case ${SHORT_CASE} "$@"; fi
  "${process.execPath}" "${BIN}" "$@"
}`;

async function runRecipe(recipe: Recipe): Promise<{ dir: string; code: number | null; output: string }> {
  assert.deepEqual(recipe.install, [INSTALL], 'the recipe installs fleetproof from the registry');
  const dir = await mkdtemp(join(tmpdir(), 'fleetproof-ci-'));
  const port = String(await freePort());
  const env = Object.fromEntries(Object.entries(recipe.env).map(([k, v]) => [k, v.replace(':8080', `:${port}`)]));
  const steps = recipe.steps.map((s) => `( set -e\n${s.replace('--port 8080', `--port ${port}`)}\n)`);
  const script = ['set -e', SHIM, ...steps].join('\n');
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('FLEETPROOF_') || k.startsWith('FLEETPROOF_TEST')),
  );
  // Its own process group: the registry the recipe leaves running in the background is stopped with it.
  const job = spawn('bash', ['-c', script], { cwd: dir, env: { ...inherited, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  job.stdout.on('data', (d) => (output += d));
  job.stderr.on('data', (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => job.on('exit', resolve));
  try {
    process.kill(-job.pid!, 'SIGTERM');
  } catch {
    // the group is already empty
  }
  await registryGone(env['FLEETPROOF_TARGET']!);
  return { dir, code, output };
}

/** Waits, a bounded number of times, for the background registry to stop answering after SIGTERM. */
async function registryGone(url: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      const res = await request(`${url}/version`, { headersTimeout: 2000 });
      await res.body.dump();
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the recipe's registry at ${url} is still running`);
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

for (const [name, read] of [
  ['github-actions.yml', githubRecipe],
  ['gitlab-ci.yml', gitlabRecipe],
] as const) {
  describe(`docs/ci/${name}`, () => {
    it('installs fleetproof, starts a registry, certifies it and leaves junit.xml and the report where it publishes them', async () => {
      const recipe = read(await readFile(docs(name), 'utf8'));
      const { dir, code, output } = await runRecipe(recipe);
      try {
        assert.equal(code, 0, output);
        assert.match(output, /target http:\/\/127\.0\.0\.1:[0-9]+ \(from FLEETPROOF_TARGET\)/);
        assert.doesNotMatch(output, /warning: .* is renamed/, 'a published recipe names no setting by a name on its way out');
        const junit = await readFile(join(dir, recipe.junit), 'utf8');
        assert.match(junit, /<testsuites[^>]*>/);
        assert.match(junit, new RegExp(SHORT_CASE.split('/')[1]!));
        assert.ok(await exists(join(dir, recipe.report, 'report.html')), `${recipe.report}report.html is published`);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
}
