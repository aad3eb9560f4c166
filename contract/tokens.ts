// The bearer token format of fleetproof-registry/v1 (spec.md §3) and its key
// files, shared by the reference server, the harness and the CLI: a JWT
// signed with EdDSA over Ed25519. The holder of the private key mints tokens
// for any tenant and role (client/token-minter.ts); a registry trusts only
// the public JWK set.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JWKS_FILE, SIGNING_KEY_FILE } from './token-defaults.ts';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JSONWebKeySet, type JWK } from 'jose';

export const TOKEN_ALGORITHM = 'EdDSA';

/** A private Ed25519 key ready to sign, with the key id its tokens name. */
export interface SigningKey {
  kid: string;
  key: CryptoKey | Uint8Array;
  /** The private JWK as stored on disk (holds `d`; never publish it). */
  jwk: JWK;
}

export interface KeyPairFiles {
  signingKeyPath: string;
  jwksPath: string;
}

function publicJwkOf(privateJwk: JWK): JWK {
  const { kty, crv, x, kid } = privateJwk;
  return { kty, crv, x, kid, alg: TOKEN_ALGORITHM, use: 'sig' };
}

/** A fresh Ed25519 key pair as a private JWK and the matching public JWK set. */
export async function generateSigningKeys(): Promise<{ privateJwk: JWK; jwks: JSONWebKeySet }> {
  const { privateKey } = await generateKeyPair(TOKEN_ALGORITHM, { crv: 'Ed25519', extractable: true });
  const exported = await exportJWK(privateKey);
  // The thumbprint is stable for the key, so a kid never names two keys.
  const kid = await calculateJwkThumbprint({ kty: exported.kty!, crv: exported.crv!, x: exported.x! });
  const privateJwk: JWK = { ...exported, kid, alg: TOKEN_ALGORITHM, use: 'sig' };
  return { privateJwk, jwks: { keys: [publicJwkOf(privateJwk)] } };
}

/** Writes `signing-key.jwk.json` (private, mode 0600) and `jwks.json` (public) into `dir`. */
export async function writeSigningKeys(dir: string): Promise<KeyPairFiles> {
  const { privateJwk, jwks } = await generateSigningKeys();
  await mkdir(dir, { recursive: true });
  const signingKeyPath = join(dir, SIGNING_KEY_FILE);
  const jwksPath = join(dir, JWKS_FILE);
  await writeFile(signingKeyPath, JSON.stringify(privateJwk, null, 2) + '\n', { mode: 0o600 });
  await writeFile(jwksPath, JSON.stringify(jwks, null, 2) + '\n');
  return { signingKeyPath, jwksPath };
}

async function readJson(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${what} ${path}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${what} ${path} is not JSON`);
  }
}

/** Imports a private Ed25519 JWK (as written by writeSigningKeys). */
export async function signingKeyFromJwk(jwk: JWK): Promise<SigningKey> {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.d !== 'string' || typeof jwk.x !== 'string') {
    throw new Error('the signing key must be a private Ed25519 JWK (kty OKP, crv Ed25519, with d)');
  }
  const kid = jwk.kid ?? (await calculateJwkThumbprint({ kty: jwk.kty, crv: jwk.crv, x: jwk.x }));
  return { kid, key: await importJWK({ ...jwk, alg: TOKEN_ALGORITHM }, TOKEN_ALGORITHM), jwk: { ...jwk, kid } };
}

export async function loadSigningKey(path: string): Promise<SigningKey> {
  return signingKeyFromJwk((await readJson(path, 'signing key')) as JWK);
}

/** Checks that a value is a JWK set holding at least one public Ed25519 key and no private one. */
export function parseJwks(value: unknown): JSONWebKeySet {
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) throw new Error('a JWK set needs a non-empty "keys" array');
  for (const k of keys as JWK[]) {
    if (typeof k !== 'object' || k === null) throw new Error('every JWK set entry must be an object');
    if ('d' in k) throw new Error('a trusted JWK set must not hold private keys');
  }
  if (!(keys as JWK[]).some((k) => k.kty === 'OKP' && k.crv === 'Ed25519')) throw new Error('the JWK set holds no Ed25519 key');
  return { keys: keys as JWK[] };
}

export async function loadJwks(path: string): Promise<JSONWebKeySet> {
  return parseJwks(await readJson(path, 'JWK set'));
}
