// The configuration model as a user meets it: every command reads flags,
// then FLEETPROOF_* variables, then fleetproof.config.json; says where its
// target came from; warns about a variable no command reads; and answers a
// mistyped flag or command with one line and the nearest name.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { writeSigningKeys } from '../../contract/tokens.ts';
import { harnessProvenance } from '../../client/provenance.ts';
import { resolveSettings, unknownVariables } from '../config.ts';
import { settingsTable, TABLE_END, TABLE_START } from '../settings-table.ts';
import { closest } from '../suggest.ts';

const BIN = fileURLToPath(new URL('../../bin/fleetproof.js', import.meta.url));
/** Nothing listens on port 1 of loopback: a target that can be named but not reached. */
const UNREACHABLE = 'http://127.0.0.1:1';

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function fleetproof(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<Ran> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  for (const name of Object.keys(env))
    if (name.startsWith('FLEETPROOF_') && !name.startsWith('FLEETPROOF_TEST') && !(name in (options.env ?? {}))) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env, cwd: options.cwd, timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

let dir: string;
let keyPath: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fleetproof-config-'));
  keyPath = (await writeSigningKeys(join(dir, 'keys'))).signingKeyPath;
});
after(() => rm(dir, { recursive: true, force: true }));

describe('configuration', () => {
  it('FLEETPROOF_TARGET and FLEETPROOF_KEY make certify certify that target, not the embedded reference', async () => {
    const out = join(dir, 'certify-env');
    const ran = await fleetproof(['certify', '--out', out], { env: { FLEETPROOF_TARGET: UNREACHABLE, FLEETPROOF_KEY: keyPath } });
    assert.equal(ran.code, 2, `an unreachable target cannot be judged:\n${ran.stdout}\n${ran.stderr}`);
    assert.match(ran.stderr, new RegExp(`target ${UNREACHABLE} \\(from FLEETPROOF_TARGET\\)`));
    assert.match(ran.stderr, /key .* \(from FLEETPROOF_KEY\)/);
    assert.doesNotMatch(ran.stdout + ran.stderr, /embedded reference/);
    const result = JSON.parse(await readFile(join(out, 'result.json'), 'utf8')) as { target: { url: string; embedded: boolean } };
    assert.deepEqual([result.target.url, result.target.embedded], [UNREACHABLE, false]);
  });

  it('properties reads its target from the environment too', async () => {
    const ran = await fleetproof(['properties', '--runs', '1', '--out', join(dir, 'props')], {
      env: { FLEETPROOF_TARGET: UNREACHABLE, FLEETPROOF_KEY: keyPath },
    });
    assert.equal(ran.code, 2, ran.stderr);
    assert.match(ran.stderr, /target http:\/\/127\.0\.0\.1:1 \(from FLEETPROOF_TARGET\)/);
    assert.doesNotMatch(ran.stdout + ran.stderr, /memory store/);
  });

  it('fleetproof.config.json in the working directory is read, and a flag wins over the environment, which wins over the file', async () => {
    const cwd = join(dir, 'project');
    await mkdir(cwd, { recursive: true });
    // "port" is serve's: one file can serve every command. "concurency" is nobody's.
    await writeFile(
      join(cwd, 'fleetproof.config.json'),
      JSON.stringify({ target: 'http://127.0.0.1:2', key: keyPath, categories: ['wire'], port: 8080, concurency: 2 }),
    );
    const fromFile = await fleetproof(['conform', '--out', join(dir, 'c1')], { cwd });
    assert.equal(fromFile.code, 2);
    assert.match(fromFile.stderr, /target http:\/\/127\.0\.0\.1:2 \(from "target" in fleetproof\.config\.json\)/);
    assert.match(
      fromFile.stderr,
      /warning: "concurency" in fleetproof\.config\.json is not a fleetproof setting; did you mean "concurrency"\?/,
    );
    assert.doesNotMatch(fromFile.stderr, /"port"/);
    const fromEnv = await fleetproof(['conform', '--out', join(dir, 'c2')], { cwd, env: { FLEETPROOF_TARGET: 'http://127.0.0.1:3' } });
    assert.match(fromEnv.stderr, /target http:\/\/127\.0\.0\.1:3 \(from FLEETPROOF_TARGET\)/);
    const fromFlag = await fleetproof(['conform', '--target', 'http://127.0.0.1:4', '--out', join(dir, 'c3')], {
      cwd,
      env: { FLEETPROOF_TARGET: 'http://127.0.0.1:3' },
    });
    assert.match(fromFlag.stderr, /target http:\/\/127\.0\.0\.1:4 \(from --target\)/);
  });

  it('resolves each source by its typed form: comma lists, yes/no, numbers in the file', () => {
    const specs = {
      set: { type: 'string', multiple: true },
      quiet: { type: 'boolean' },
      runs: { type: 'string' },
      engine: { type: 'string', default: 'auto' },
    } as const;
    const r = resolveSettings(
      specs,
      {},
      { FLEETPROOF_SET: 'tenants=2, routes=3', FLEETPROOF_QUIET: '1' },
      { path: 'f.json', members: { runs: 5 } },
    );
    assert.deepEqual(r.values, { set: ['tenants=2', 'routes=3'], quiet: true, runs: '5', engine: 'auto' });
    assert.deepEqual(
      Object.values(r.sources).map((s) => s.from),
      ['env', 'env', 'file', 'default'],
    );
    assert.throws(() => resolveSettings(specs, {}, { FLEETPROOF_QUIET: 'maybe' }, null), /FLEETPROOF_QUIET=maybe is not a yes or no/);
  });

  it('an unknown FLEETPROOF_* variable is a warning naming the closest known one', async () => {
    assert.deepEqual(unknownVariables({ FLEETPROOF_TAREGT: 'x', FLEETPROOF_TARGET: 'y', PATH: '/bin' }, ['FLEETPROOF_TARGET']), [
      'FLEETPROOF_TAREGT is not a fleetproof setting and is ignored; did you mean FLEETPROOF_TARGET?',
    ]);
    const ran = await fleetproof(['token', '--key', keyPath, '--roles', 'registry:reader'], { env: { FLEETPROOF_PROFLE: 'smoke' } });
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stderr, /warning: FLEETPROOF_PROFLE is not a fleetproof setting and is ignored; did you mean FLEETPROOF_PROFILE\?/);
  });

  it('an unknown flag is one line with the nearest flag and a pointer to --help, exit 2', async () => {
    const ran = await fleetproof(['certify', '--tagret', UNREACHABLE]);
    assert.equal(ran.code, 2);
    assert.equal(ran.stderr.trim().split('\n').length, 1, ran.stderr);
    assert.match(ran.stderr, /unknown flag --tagret; did you mean --target\?; run `fleetproof certify --help`/);
    const command = await fleetproof(['certfy']);
    assert.equal(command.code, 2);
    assert.match(command.stderr, /unknown command certfy; did you mean certify\?/);
    const name = await fleetproof(['load', '--target', UNREACHABLE, '--key', keyPath, '--profile', 'smok']);
    assert.equal(name.code, 2);
    assert.match(name.stderr, /unknown profile smok; did you mean smoke\? \(known: .*smoke/);
  });

  it('certify refuses the breakpoint ramp, which has no pass or fail at one rate: exit 2, and where to run it', async () => {
    const ran = await fleetproof(['certify', '--profile', 'breakpoint']);
    assert.equal(ran.code, 2);
    assert.match(
      ran.stderr,
      /--profile breakpoint is a ramp that measures how far a registry goes, not a qualification: run it with fleetproof load --profile breakpoint/,
    );
    const unknown = await fleetproof(['certify', '--profile', 'nope']);
    assert.doesNotMatch(unknown.stderr, /known: [^)]*breakpoint/, 'the profiles certify lists are those it qualifies at');
  });

  it('an Authorization header beside --key or --token-cmd is refused before anything runs: it would make every caller one', async () => {
    for (const command of ['certify', 'conform', 'properties', 'load']) {
      for (const tokens of [
        ['--key', join(dir, 'key.json')],
        ['--token-cmd', 'print-token {tenant}'],
      ]) {
        const ran = await fleetproof([command, '--target', 'http://127.0.0.1:9', ...tokens, '--header', 'Authorization: Bearer fixed']);
        assert.equal(ran.code, 2, `${command} ${tokens[0]}: ${ran.stderr}`);
        assert.match(
          ran.stderr,
          new RegExp(`--header Authorization would replace every token ${tokens[0]} gives`),
          `${command} ${tokens[0]}`,
        );
      }
    }
  });

  it('certify with a signing key it cannot read, or an out directory it cannot make, could not run: exit 2, never 1', async () => {
    const key = await fleetproof(['certify', '--sign-key', join(dir, 'no-such-key.json')]);
    assert.equal(key.code, 2);
    assert.match(key.stderr, /--sign-key \S+no-such-key\.json: ENOENT/);
    assert.doesNotMatch(key.stderr, /target the embedded reference/, 'refused before it starts anything');
    const file = join(dir, 'a-file');
    await writeFile(file, '');
    const out = await fleetproof(['certify', '--out', join(file, 'run')]);
    assert.equal(out.code, 2, out.stderr);
    assert.match(out.stderr, /fleetproof certify: could not run: Error: ENOTDIR: not a directory, mkdir '\S+a-file\/run'/);
  });

  it('a bundle that is not there could not be verified: one line, exit 2', async () => {
    const ran = await fleetproof(['verify', join(dir, 'no-such-bundle.json')]);
    assert.equal(ran.code, 2);
    assert.match(
      ran.stderr,
      /^fleetproof verify: could not run: cannot read the bundle .*no-such-bundle\.json: no such file; give the bundle\.json a certify run wrote \[FP_ERR_BUNDLE_INPUT\]\n$/,
    );
  });

  it('a FLEETPROOF_TARGET meant for other commands does not conflict with load --plan', async () => {
    const plan = join(dir, 'not-a-plan.json');
    await writeFile(plan, '{}');
    const ran = await fleetproof(['load', '--plan', plan], { env: { FLEETPROOF_TARGET: UNREACHABLE } });
    assert.equal(ran.code, 2);
    assert.doesNotMatch(ran.stderr, /cannot be combined with --plan/);
    assert.match(ran.stderr, /is not a fleetproof run plan/);
  });

  it('--version prints the harness version and commit', async () => {
    const ran = await fleetproof(['--version']);
    const p = harnessProvenance();
    assert.equal(ran.code, 0);
    assert.match(ran.stdout, new RegExp(`^fleetproof ${p.version.replace(/\./g, '\\.')} \\(commit ${p.commit}`));
  });

  it('suggests only names that are near', () => {
    assert.equal(closest('postgress', ['memory', 'postgres']), 'postgres');
    assert.equal(closest('zzzzzz', ['memory', 'postgres']), undefined);
  });

  it('docs/configuration.md holds the table the commands generate', async () => {
    const doc = await readFile(fileURLToPath(new URL('../../docs/configuration.md', import.meta.url)), 'utf8');
    const body = doc.slice(doc.indexOf(TABLE_START) + TABLE_START.length, doc.indexOf(TABLE_END)).trim();
    assert.equal(body, await settingsTable(), 'the table is stale: npm run docs:tables');
  });
});
