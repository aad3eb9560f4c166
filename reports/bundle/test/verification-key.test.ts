// A signer publishes the JWK set `fleetproof keys` writes; verify takes it (or
// a single JWK), picks the key the signature names, and says which one it used.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { writeSigningKeys } from '../../../contract/tokens.ts';
import { loadSigner, verifyBundle, writeBundle } from '../bundle.ts';
import { BundleInputError } from '../verification-key.ts';

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const rederive = async () => ({ verdict: 'qualified' as const, problems: [] });

async function signedBy(signingKeyPath: string) {
  const dir = await mkdtemp(join(tmpdir(), 'fleetproof-vkey-'));
  dirs.push(dir);
  await writeFile(join(dir, 'result.json'), '{}');
  const predicate = {
    verdict: 'qualified',
    harness: { name: 'fleetproof', version: '0', commit: 't' },
    contract: 'fleetproof-registry/v1',
    target: { url: null, implementation: null },
    profile: 'smoke',
    run_id: 'r',
    finished_at: '2026-12-01T00:00:00.000Z',
  } as const;
  return writeBundle(dir, ['result.json'], predicate, await loadSigner(signingKeyPath));
}

describe('verification key', () => {
  it('a JWK set from `fleetproof keys` verifies, among other keys, and the report names the key by kid and thumbprint', async () => {
    const keysDir = await mkdtemp(join(tmpdir(), 'fleetproof-signer-'));
    dirs.push(keysDir);
    const signer = await writeSigningKeys(join(keysDir, 'signer'));
    const other = await writeSigningKeys(join(keysDir, 'other'));
    const bundle = await signedBy(signer.signingKeyPath);
    const own = JSON.parse(await readFile(signer.jwksPath, 'utf8')) as { keys: Array<{ kid: string }> };
    const others = JSON.parse(await readFile(other.jwksPath, 'utf8')) as { keys: unknown[] };
    const published = join(keysDir, 'published.json');
    await writeFile(published, JSON.stringify({ keys: [...others.keys, ...own.keys] }));
    const report = await verifyBundle(bundle, rederive, published);
    assert.equal(report.ok, true, report.problems.join('; '));
    assert.match(report.key ?? '', new RegExp(`^kid ${own.keys[0]!.kid}, thumbprint [A-Za-z0-9_-]{43} from `));
    const wrong = await verifyBundle(bundle, rederive, other.jwksPath);
    assert.equal(wrong.ok, false);
    assert.match(wrong.problems.join(''), /does not verify under kid .*thumbprint/);
  });

  it('a missing bundle or a key file without an Ed25519 public key is an input error naming the fix', async () => {
    await assert.rejects(
      verifyBundle('/nonexistent/bundle.json', rederive),
      (err) => err instanceof BundleInputError && /no such file; give the bundle.json a certify run wrote/.test(err.message),
    );
    const keysDir = await mkdtemp(join(tmpdir(), 'fleetproof-signer-'));
    dirs.push(keysDir);
    const bundle = await signedBy((await writeSigningKeys(keysDir)).signingKeyPath);
    const rsa = join(keysDir, 'rsa.json');
    await writeFile(rsa, JSON.stringify({ kty: 'RSA', n: 'x', e: 'AQAB' }));
    await assert.rejects(
      verifyBundle(bundle, rederive, rsa),
      /holds no Ed25519 public key .*give --pubkey a public Ed25519 JWK or JWK set/,
    );
  });
});
