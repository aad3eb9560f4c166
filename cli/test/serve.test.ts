// `fleetproof serve` as a harness uses it: a child process on port 0 whose
// first stdout line is its address, tokens minted with the key it prints or
// with the key behind --jwks, faults only when allowed, and a clean exit on
// SIGTERM or SIGINT.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { request } from 'undici';
import { generateSigningKeys, loadSigningKey, signingKeyFromJwk, writeSigningKeys } from '../../contract/tokens.ts';
import { mintToken } from '../../client/token-minter.ts';
import type { VersionInfo } from '../../contract/records.ts';
import { drawVariant } from '../../reference/variant/draw-variant.ts';
import { main } from '../main.ts';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/fleetproof.js', import.meta.url));

interface Served {
  child: ChildProcess;
  nextLine(): Promise<string>;
  exit: Promise<{ code: number | null; stderr: string }>;
}

/** Every child a case started; any still running when the suite ends is stopped. */
const started = new Set<ChildProcess>();

/** Start-up compiles every schema of the contract; on a crowded machine that can take a while. */
const STARTUP_MS = 90_000;

function serve(args: string[], env: Record<string, string> = {}): Served {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  child.on('exit', () => started.delete(child));
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const exit = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
  return {
    child,
    exit,
    async nextLine() {
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no output; stderr: ${stderr}`)), STARTUP_MS).unref(),
      );
      const next = await Promise.race([lines.next(), timeout]);
      if (next.done) throw new Error(`serve ended before printing; stderr: ${stderr}`);
      return next.value;
    },
  };
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

async function fleetStatus(url: string, token: string): Promise<number> {
  const res = await request(`${url}/v1/fleet/status`, { headers: { authorization: `Bearer ${token}` } });
  await res.body.dump();
  return res.statusCode;
}

// Each case runs its own child process on its own port, so they run side by side.
describe('fleetproof serve', { concurrency: true }, () => {
  const dirs: string[] = [];
  after(async () => {
    for (const child of started) child.kill('SIGKILL');
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('[ops-health] prints its address and an ephemeral signing key, honours tokens from it, and exits 0 on SIGTERM', async () => {
    const served = serve(['--port', '0']);
    const first = await served.nextLine();
    const m = /^listening on (http:\/\/127\.0\.0\.1:([0-9]+))$/.exec(first);
    assert.ok(m, first);
    assert.notEqual(Number(m[2]), 0, 'port 0 is replaced by the real port');
    const keyLine = await served.nextLine();
    const keyPath = /^signing key: (.+\/signing-key\.jwk\.json)$/.exec(keyLine)?.[1];
    assert.ok(keyPath, keyLine);
    const key = await loadSigningKey(keyPath);
    assert.equal(await fleetStatus(m[1]!, await mintToken({ key, roles: ['registry:operator'] })), 200);
    assert.equal(await fleetStatus(m[1]!, await mintToken({ key, roles: ['registry:reader'] })), 403);
    served.child.kill('SIGTERM');
    const { code } = await served.exit;
    assert.equal(code, 0);
    assert.equal(await exists(dirname(keyPath)), false, 'the ephemeral key directory is removed');
  });

  it('[auth-signature] with --jwks it trusts exactly that set and exits 0 on SIGINT', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fleetproof-serve-test-'));
    dirs.push(dir);
    const files = await writeSigningKeys(dir);
    const served = serve(['--port', '0', '--jwks', files.jwksPath]);
    const url = (await served.nextLine()).replace('listening on ', '');
    const trusted = await loadSigningKey(files.signingKeyPath);
    const stranger = await signingKeyFromJwk((await generateSigningKeys()).privateJwk);
    assert.equal(await fleetStatus(url, await mintToken({ key: trusted, roles: ['registry:operator'] })), 200);
    assert.equal(await fleetStatus(url, await mintToken({ key: stranger, roles: ['registry:operator'] })), 401);
    served.child.kill('SIGINT');
    assert.equal((await served.exit).code, 0);
  });

  it('[auth-signature] FLEETPROOF_JWKS gives the trusted set when there is no --jwks, and prints no signing key', async () => {
    const { privateJwk, jwks } = await generateSigningKeys();
    const served = serve(['--port', '0'], { FLEETPROOF_JWKS: JSON.stringify(jwks) });
    const url = (await served.nextLine()).replace('listening on ', '');
    assert.equal(await fleetStatus(url, await mintToken({ key: await signingKeyFromJwk(privateJwk), roles: ['registry:operator'] })), 200);
    served.child.kill('SIGTERM');
    const { code } = await served.exit;
    assert.equal(code, 0);
    await assert.rejects(served.nextLine(), /ended before printing/, 'no signing key line');
    const broken = await serve(['--port', '0'], { FLEETPROOF_JWKS: '{"keys":' }).exit;
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /FLEETPROOF_JWKS/);
  });

  it('a defect is refused unless FLEETPROOF_ALLOW_DEFECTS=1, an unknown one always, and one allowed is served and named', async () => {
    const [refused, unknown, fromVariable] = await Promise.all([
      serve(['--port', '0', '--defect', 'tenant-from-body']).exit,
      serve(['--port', '0', '--defect', 'tenant-from-bdy'], { FLEETPROOF_ALLOW_DEFECTS: '1' }).exit,
      serve(['--port', '0', '--defect', 'unbounded-lease-expiry', '--store', 'memory'], { FLEETPROOF_DEFECT: 'x' }).exit,
    ]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /FLEETPROOF_ALLOW_DEFECTS=1/);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown defect tenant-from-bdy.*tenant-from-body/);
    assert.equal(fromVariable.code, 2, 'FLEETPROOF_DEFECT is no setting: the flag alone still needs the switch');
    const allowed = serve(['--port', '0', '--defect', 'tenant-from-body'], { FLEETPROOF_ALLOW_DEFECTS: '1' });
    assert.match(await allowed.nextLine(), /^listening on http:/);
    assert.match(await allowed.nextLine(), /^signing key: /);
    assert.match(await allowed.nextLine(), /^deliberate defect tenant-from-body \[auth-tenant-from-token\]: /);
    allowed.child.kill('SIGTERM');
    assert.equal((await allowed.exit).code, 0);
  });

  it('[ops-version] --variant SEED serves that variant, a defect beside it, and names it in GET /version; a bad seed is refused', async () => {
    const variant = drawVariant(113);
    const served = serve(['--port', '0', '--variant', '113', '--defect', 'settle-skip-fence'], { FLEETPROOF_ALLOW_DEFECTS: '1' });
    const url = (await served.nextLine()).replace('listening on ', '');
    const res = await request(`${url}/version`);
    const info = (await res.body.json()) as VersionInfo;
    assert.deepEqual(info.limits, variant.limits);
    assert.deepEqual(info.variant, { seed: 113, choices: { ...variant.choices } });
    served.child.kill('SIGTERM');
    assert.equal((await served.exit).code, 0);
    const refused = await serve(['--port', '0', '--variant', '4294967296']).exit;
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--variant: a variant seed is an integer/);
  });

  it('a port in use is reported, not thrown', async () => {
    const first = serve(['--port', '0']);
    const port = (await first.nextLine()).split(':').pop()!;
    const second = await serve(['--port', port]).exit;
    assert.equal(second.code, 2);
    assert.match(second.stderr, /cannot listen/);
    first.child.kill('SIGTERM');
    await first.exit;
  });

  it('unknown flags, missing values and bad values exit 2; --help exits 0', async (t) => {
    t.mock.method(console, 'error', () => {});
    t.mock.method(console, 'log', () => {});
    for (const argv of [
      ['serve', '--bogus'],
      ['serve', '--port'],
      ['serve', '--port', '70000'],
      ['serve', '--store', 'sqlite'],
      ['serve', '--pg-url', 'postgres://x'],
      ['serve', '--jwks', '/nonexistent/jwks.json', '--port', '0'],
    ]) {
      assert.equal(await main(argv), 2, argv.join(' '));
    }
    assert.equal(await main(['serve', '--help']), 0);
  });
});
