// The token format: key files, their loading, and the claims a minted token
// carries, checked by verifying with jose against the public set alone.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { loadJwks, loadSigningKey, parseJwks, writeSigningKeys } from '../tokens.ts';
import { DEFAULT_AUDIENCE } from '../token-defaults.ts';
import { mintToken } from '../../client/token-minter.ts';

async function withTempDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'fleetproof-tokens-'));
  try {
    await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('tokens', () => {
  it('[auth-signature] key files: a private JWK readable only by its owner and a public set without the private part', () =>
    withTempDir(async (dir) => {
      const { signingKeyPath, jwksPath } = await writeSigningKeys(dir);
      assert.equal(signingKeyPath, join(dir, 'signing-key.jwk.json'));
      assert.equal(jwksPath, join(dir, 'jwks.json'));
      assert.equal((await stat(signingKeyPath)).mode & 0o077, 0, 'no group or other access to the private key');
      const privateJwk = JSON.parse(await readFile(signingKeyPath, 'utf8'));
      const jwks = JSON.parse(await readFile(jwksPath, 'utf8'));
      assert.equal(privateJwk.kty, 'OKP');
      assert.equal(privateJwk.crv, 'Ed25519');
      assert.equal(typeof privateJwk.d, 'string');
      assert.equal(jwks.keys.length, 1);
      assert.equal(jwks.keys[0].kid, privateJwk.kid);
      assert.equal(jwks.keys[0].d, undefined);
      assert.deepEqual(await loadJwks(jwksPath), jwks);
    }));

  it('[auth-roles] a minted token carries aud, exp, iat, sub, scope and tenant_id and verifies with EdDSA', () =>
    withTempDir(async (dir) => {
      const { signingKeyPath, jwksPath } = await writeSigningKeys(dir);
      const key = await loadSigningKey(signingKeyPath);
      const now = Math.floor(Date.now() / 1000);
      const token = await mintToken({ key, roles: ['registry:dispatch', 'registry:reader'], tenant: 'tenant-a', ttlSeconds: 120 });
      assert.deepEqual(decodeProtectedHeader(token), { alg: 'EdDSA', kid: key.kid, typ: 'JWT' });
      const { payload } = await jwtVerify(token, createLocalJWKSet(await loadJwks(jwksPath)), {
        audience: DEFAULT_AUDIENCE,
        algorithms: ['EdDSA'],
      });
      assert.equal(payload.scope, 'registry:dispatch registry:reader');
      assert.equal(payload['tenant_id'], 'tenant-a');
      assert.equal(payload.sub, 'tenant:tenant-a');
      assert.ok(Math.abs(payload.iat! - now) <= 2);
      assert.equal(payload.exp! - payload.iat!, 120);
    }));

  it('[auth-audience] audience, time and an absent tenant are honoured', () =>
    withTempDir(async (dir) => {
      const { signingKeyPath, jwksPath } = await writeSigningKeys(dir);
      const key = await loadSigningKey(signingKeyPath);
      const keys = createLocalJWKSet(await loadJwks(jwksPath));
      const other = await mintToken({ key, roles: [], audience: 'elsewhere' });
      await assert.rejects(jwtVerify(other, keys, { audience: DEFAULT_AUDIENCE }), { code: 'ERR_JWT_CLAIM_VALIDATION_FAILED' });
      const old = await mintToken({ key, roles: ['registry:reader'], now: 1_000_000, ttlSeconds: 60 });
      await assert.rejects(jwtVerify(old, keys, { audience: DEFAULT_AUDIENCE }), { code: 'ERR_JWT_EXPIRED' });
      const { payload } = await jwtVerify(await mintToken({ key, roles: [] }), keys, { audience: DEFAULT_AUDIENCE });
      assert.equal(payload['tenant_id'], undefined);
      assert.equal(payload.scope, '');
    }));

  it('[auth-signature] a trusted JWK set refuses private keys, emptiness and non-Ed25519 keys; a signing key must be private', () =>
    withTempDir(async (dir) => {
      const { signingKeyPath, jwksPath } = await writeSigningKeys(dir);
      const privateJwk = JSON.parse(await readFile(signingKeyPath, 'utf8'));
      assert.throws(() => parseJwks({ keys: [privateJwk] }), /private/);
      assert.throws(() => parseJwks({ keys: [] }), /non-empty/);
      assert.throws(() => parseJwks({ keys: [{ kty: 'RSA', n: 'x', e: 'AQAB' }] }), /Ed25519/);
      assert.throws(() => parseJwks('nope'), /keys/);
      await assert.rejects(loadSigningKey(jwksPath), /private Ed25519 JWK/);
      const notJson = join(dir, 'broken.json');
      await writeFile(notJson, '{');
      await assert.rejects(loadJwks(notJson), /not JSON/);
      await assert.rejects(loadJwks(join(dir, 'absent.json')), /cannot read/);
    }));
});
