// Writing and verifying a certification bundle: `bundle.json` (a DSSE
// envelope over the statement) beside the run's result files, and the
// signer's public key as `bundle.pub.jwk.json`.
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { envelopeVerifies, privateKeyFromJwk, signEnvelope, type DsseEnvelope } from './dsse.ts';
import { BundleInputError, describeKey, readJson, verificationKeys } from './verification-key.ts';
import {
  fileDigest,
  PAYLOAD_TYPE,
  PREDICATE_TYPE,
  STATEMENT_TYPE,
  statementOf,
  subjectsOf,
  type CertificationPredicate,
  type Statement,
  type Verdict,
} from './statement.ts';

export const BUNDLE_FILE = 'bundle.json';
export const BUNDLE_PUBLIC_KEY_FILE = 'bundle.pub.jwk.json';

export interface SignerKey {
  privateKey: KeyObject;
  publicJwk: Record<string, unknown>;
  keyid: string;
}

/** The signer from a private Ed25519 JWK file, or a fresh one for this run. */
export async function loadSigner(jwkPath?: string): Promise<SignerKey> {
  if (jwkPath) {
    const jwk = JSON.parse(await readFile(jwkPath, 'utf8')) as Record<string, unknown>;
    if (jwk['kty'] !== 'OKP' || jwk['crv'] !== 'Ed25519' || typeof jwk['d'] !== 'string' || typeof jwk['x'] !== 'string')
      throw new Error(`${jwkPath} is not a private Ed25519 JWK (kty OKP, crv Ed25519, d and x)`);
    const privateKey = privateKeyFromJwk(jwk);
    // The public half shipped beside the bundle is the one the private half derives: a JWK whose "x" belongs to
    // another key would sign a bundle no one can verify, so it is refused before the run.
    const derived = createPublicKey(privateKey).export({ format: 'jwk' }) as Record<string, unknown>;
    if (!Buffer.from(jwk['x'] as string, 'base64url').equals(Buffer.from(derived['x'] as string, 'base64url')))
      throw new Error(`${jwkPath}: its public half ("x") is not the one its private half ("d") derives`);
    const { d: _d, ...publicJwk } = jwk;
    return { privateKey, publicJwk, keyid: String(jwk['kid'] ?? 'fleetproof') };
  }
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const publicJwk = publicKey.export({ format: 'jwk' }) as Record<string, unknown>;
  return { privateKey, publicJwk: { ...publicJwk, kid: 'ephemeral' }, keyid: 'ephemeral' };
}

/** Signs every named file of `dir` (relative names) and writes the bundle and public key there. */
export async function writeBundle(
  dir: string,
  files: readonly string[],
  predicate: CertificationPredicate,
  signer: SignerKey,
): Promise<string> {
  const statement = statementOf(await subjectsOf(dir, files), predicate);
  const envelope = signEnvelope(PAYLOAD_TYPE, Buffer.from(JSON.stringify(statement), 'utf8'), signer.privateKey, signer.keyid);
  const path = join(dir, BUNDLE_FILE);
  await writeFile(path, JSON.stringify(envelope, null, 2) + '\n');
  await writeFile(join(dir, BUNDLE_PUBLIC_KEY_FILE), JSON.stringify(signer.publicJwk, null, 2) + '\n');
  return path;
}

export interface VerificationReport {
  ok: boolean;
  verdict: Verdict | null;
  /** Whether the key came from the caller rather than from beside the bundle. */
  keyPinned: boolean;
  /** The key the signature verified under (kid, thumbprint, file); null when none did. */
  key: string | null;
  problems: string[];
  checked: string[];
}

/**
 * Checks the signature, every subject digest, and that `rederive` (which reads
 * the stored results) reaches the signed verdict.
 */
export async function verifyBundle(
  bundlePath: string,
  /** The verdict the stored results give, or null (with the reason among the problems) when they give none. */
  rederive: (dir: string, statement: Statement) => Promise<{ verdict: Verdict | null; problems: string[] }>,
  publicKeyPath?: string,
): Promise<VerificationReport> {
  const dir = dirname(bundlePath);
  const problems: string[] = [];
  const checked: string[] = [];
  const envelope = (await readJson(bundlePath, 'bundle', 'give the bundle.json a certify run wrote')) as DsseEnvelope;
  if (typeof envelope !== 'object' || envelope === null || typeof envelope.payload !== 'string' || !Array.isArray(envelope.signatures)) {
    throw new BundleInputError(`${bundlePath} is not a DSSE envelope; give the bundle.json a certify run wrote`);
  }
  const keyPath = publicKeyPath ?? join(dir, BUNDLE_PUBLIC_KEY_FILE);
  const keyName = relative(process.cwd(), keyPath) || basename(keyPath);
  const candidates = await verificationKeys(keyPath, envelope.signatures[0]?.keyid);
  const used = candidates.find((k) => envelopeVerifies(envelope, k.key)) ?? null;
  const report = (verdict: Verdict | null): VerificationReport => ({
    ok: problems.length === 0,
    verdict,
    keyPinned: publicKeyPath !== undefined,
    key: used ? `${describeKey(used)} from ${keyName}` : null,
    problems,
    checked,
  });
  if (envelope.payloadType !== PAYLOAD_TYPE) problems.push(`payload type is ${envelope.payloadType}, not ${PAYLOAD_TYPE}`);
  if (!used) {
    problems.push(
      `the signature does not verify under ${candidates.length === 1 ? describeKey(candidates[0]!) : `any of the ${candidates.length} keys`} in ${keyName}`,
    );
    return report(null);
  }
  checked.push('signature');
  const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as Statement;
  if (statement._type !== STATEMENT_TYPE || statement.predicateType !== PREDICATE_TYPE)
    problems.push('the payload is not a fleetproof certification statement');
  for (const s of statement.subject) {
    let actual: string;
    try {
      actual = await fileDigest(join(dir, s.name));
    } catch {
      problems.push(`${s.name} is missing`);
      continue;
    }
    if (actual !== s.digest.sha256) problems.push(`${s.name} does not match its signed digest`);
    else checked.push(s.name);
  }
  const derived = await rederive(dir, statement);
  problems.push(...derived.problems);
  if (derived.verdict !== null && derived.verdict !== statement.predicate.verdict) {
    problems.push(`the stored results give verdict ${derived.verdict}, the bundle claims ${statement.predicate.verdict}`);
  }
  return report(statement.predicate.verdict);
}
