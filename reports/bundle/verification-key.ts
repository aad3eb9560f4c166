// The public key a bundle is checked against: a single Ed25519 JWK (what
// `certify` writes beside the bundle) or a JWK set (what `fleetproof keys`
// writes and a signer publishes). From a set, the key whose kid the signature
// names is used, else each Ed25519 key in turn; the report names the one that
// verified by kid and RFC 7638 thumbprint, so a reader knows who signed.
import { createHash, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { publicKeyFromJwk } from './dsse.ts';
import { FleetproofError } from '../../client/errors.ts';

/** A bundle or key file that cannot be read or is not what it should be: the run could not judge. */
export class BundleInputError extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_BUNDLE_INPUT', message, options);
  }
}

export interface VerificationKey {
  key: KeyObject;
  kid: string | null;
  thumbprint: string;
}

/** RFC 7638 thumbprint of an OKP key: SHA-256 over its required members in lexicographic order. */
function thumbprint(jwk: Record<string, unknown>): string {
  const canonical = JSON.stringify({ crv: jwk['crv'], kty: jwk['kty'], x: jwk['x'] });
  return createHash('sha256').update(canonical).digest('base64url');
}

function isEd25519(jwk: unknown): jwk is Record<string, unknown> {
  const k = jwk as Record<string, unknown> | null;
  return typeof k === 'object' && k !== null && k['kty'] === 'OKP' && k['crv'] === 'Ed25519' && typeof k['x'] === 'string';
}

export async function readJson(path: string, what: string, fix: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const cause = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
    throw new BundleInputError(`cannot read the ${what} ${path}: ${cause}; ${fix}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new BundleInputError(`the ${what} ${path} is not JSON (${(err as Error).message}); ${fix}`);
  }
}

/** The candidate keys of a key file, the one the signature names first. */
export async function verificationKeys(path: string, keyid: string | undefined): Promise<VerificationKey[]> {
  const fix = 'give --pubkey a public Ed25519 JWK or JWK set (the jwks.json `fleetproof keys` writes)';
  const json = await readJson(path, 'public key', fix);
  const set =
    typeof json === 'object' && json !== null && Array.isArray((json as { keys?: unknown }).keys)
      ? (json as { keys: unknown[] }).keys
      : [json];
  const keys = set.filter(isEd25519);
  if (keys.length === 0) throw new BundleInputError(`the public key ${path} holds no Ed25519 public key (kty OKP, crv Ed25519); ${fix}`);
  const ordered = [
    ...keys.filter((k) => keyid !== undefined && k['kid'] === keyid),
    ...keys.filter((k) => keyid === undefined || k['kid'] !== keyid),
  ];
  return ordered.map((jwk) => {
    const { d: _private, ...publicJwk } = jwk;
    return { key: publicKeyFromJwk(publicJwk), kid: typeof jwk['kid'] === 'string' ? jwk['kid'] : null, thumbprint: thumbprint(jwk) };
  });
}

export function describeKey(key: VerificationKey): string {
  return `${key.kid !== null ? `kid ${key.kid}, ` : ''}thumbprint ${key.thumbprint}`;
}
