// `fleetproof keys` and `fleetproof token`: the files a harness needs and a
// token a registry trusting those files accepts.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, type TestContext } from 'node:test';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { loadJwks } from '../../contract/tokens.ts';
import { main } from '../main.ts';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fleetproof-cli-test-'));
  dirs.push(dir);
  return dir;
}

/** Runs a command and returns its exit code and what it printed. */
async function cli(t: TestContext, argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = t.mock.method(console, 'log', (...a: unknown[]) => out.push(a.join(' ')));
  const error = t.mock.method(console, 'error', (...a: unknown[]) => err.push(a.join(' ')));
  try {
    return { code: await main(argv), out, err };
  } finally {
    log.mock.restore();
    error.mock.restore();
  }
}

describe('fleetproof keys and token', () => {
  after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('[auth-signature] keys writes both files, refuses to replace them without --force', async (t) => {
    const dir = join(await tempDir(), 'nested');
    const first = await cli(t, ['keys', '--out', dir]);
    assert.equal(first.code, 0);
    assert.deepEqual(first.out, [`signing key: ${join(dir, 'signing-key.jwk.json')}`, `jwks: ${join(dir, 'jwks.json')}`]);
    const kid = (await loadJwks(join(dir, 'jwks.json'))).keys[0]!.kid;
    const again = await cli(t, ['keys', '--out', dir]);
    assert.equal(again.code, 2);
    assert.match(again.err.join('\n'), /--force/);
    assert.equal((await loadJwks(join(dir, 'jwks.json'))).keys[0]!.kid, kid, 'the existing keys are untouched');
    assert.equal((await cli(t, ['keys', '--out', dir, '--force'])).code, 0);
    assert.notEqual((await loadJwks(join(dir, 'jwks.json'))).keys[0]!.kid, kid);
  });

  it('[auth-roles] token prints one token with the roles, tenant, lifetime and audience asked for', async (t) => {
    const dir = await tempDir();
    await cli(t, ['keys', '--out', dir]);
    const args = [
      'token',
      '--key',
      join(dir, 'signing-key.jwk.json'),
      '--roles',
      'registry:dispatch, registry:reader',
      '--tenant',
      'tenant-a',
      '--ttl',
      '90',
    ];
    const { code, out } = await cli(t, args);
    assert.equal(code, 0);
    assert.equal(out.length, 1);
    const keys = createLocalJWKSet(await loadJwks(join(dir, 'jwks.json')));
    const { payload } = await jwtVerify(out[0]!, keys, { audience: 'fleetproof-registry', algorithms: ['EdDSA'] });
    assert.equal(payload.scope, 'registry:dispatch registry:reader');
    assert.equal(payload['tenant_id'], 'tenant-a');
    assert.equal(payload.exp! - payload.iat!, 90);
    const other = await cli(t, ['token', '--key', join(dir, 'signing-key.jwk.json'), '--roles', '', '--audience', 'elsewhere']);
    const { payload: p2 } = await jwtVerify(other.out[0]!, keys, { audience: 'elsewhere' });
    assert.equal(p2.scope, '');
    assert.equal(p2['tenant_id'], undefined);
  });

  it('unknown flags, missing or bad values and unreadable keys exit 2; --help exits 0', async (t) => {
    const dir = await tempDir();
    await cli(t, ['keys', '--out', dir]);
    const key = join(dir, 'signing-key.jwk.json');
    for (const argv of [
      ['keys'],
      ['keys', '--out'],
      ['keys', '--outdir', dir],
      ['token', '--roles', 'registry:reader'],
      ['token', '--key', key],
      ['token', '--key', key, '--roles', 'registry:root'],
      ['token', '--key', key, '--roles', 'registry:reader', '--ttl', '-5'],
      ['token', '--key', key, '--roles', 'registry:reader', '--ttl', '1.5'],
      ['token', '--key', key, '--roles', 'registry:reader', '--tenant', 'not a tenant'],
      ['token', '--key', key, '--roles', 'registry:reader', '--color'],
      ['token', '--key', join(dir, 'jwks.json'), '--roles', 'registry:reader'],
      ['token', '--key', join(dir, 'absent.json'), '--roles', 'registry:reader'],
    ]) {
      const { code, out } = await cli(t, argv);
      assert.equal(code, 2, argv.join(' '));
      assert.deepEqual(out, [], `${argv.join(' ')} printed no token`);
    }
    for (const command of ['keys', 'token']) assert.equal((await cli(t, [command, '--help'])).code, 0);
    assert.equal(JSON.parse(await readFile(key, 'utf8')).kty, 'OKP');
  });
});
