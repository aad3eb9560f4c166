import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BUNDLE_PUBLIC_KEY_FILE, loadSigner, verifyBundle, writeBundle } from '../bundle.ts';
import type { CertificationPredicate, Verdict } from '../statement.ts';

const predicate = (verdict: Verdict): CertificationPredicate => ({
  verdict,
  harness: { name: 'fleetproof', version: '0.0.0', commit: 'test' },
  contract: 'fleetproof-registry/v1',
  target: { url: null, implementation: { name: 'test', version: '1' } },
  profile: 'smoke',
  run_id: 'run1',
  finished_at: '2026-11-30T12:00:00.000Z',
});

/** A stand-in for the real re-derivation: the verdict is the word in verdict.txt. */
const rederive = async (dir: string) => ({ verdict: (await readFile(join(dir, 'verdict.txt'), 'utf8')).trim() as Verdict, problems: [] });

/** Every run directory a test signed, removed when the file ends however its tests ended. */
const runDirs: string[] = [];
after(() => Promise.all(runDirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function signedRun(verdict: Verdict = 'qualified') {
  const dir = await mkdtemp(join(tmpdir(), 'fleetproof-bundle-'));
  runDirs.push(dir);
  await writeFile(join(dir, 'verdict.txt'), verdict);
  await writeFile(join(dir, 'result.json'), '{"cases":[]}');
  const signer = await loadSigner();
  const path = await writeBundle(dir, ['verdict.txt', 'result.json'], predicate(verdict), signer);
  return { dir, path };
}

describe('certification bundle', () => {
  it('verifies an untouched run', async () => {
    const { path } = await signedRun();
    const report = await verifyBundle(path, rederive);
    assert.deepEqual(report.problems, []);
    assert.equal(report.ok, true);
    assert.deepEqual(report.checked.sort(), ['result.json', 'signature', 'verdict.txt']);
  });

  it('refuses a signing key whose public half belongs to another key, or is missing', async () => {
    // Before, the mismatched "x" was shipped beside the bundle, which then verified under no key.
    const dir = await mkdtemp(join(tmpdir(), 'fleetproof-sign-key-'));
    runDirs.push(dir);
    const jwkOf = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }) as Record<string, unknown>;
    const [own, other] = [jwkOf(), jwkOf()];
    const mismatched = join(dir, 'mismatched.jwk.json');
    await writeFile(mismatched, JSON.stringify({ ...own, x: other['x'] }));
    await assert.rejects(loadSigner(mismatched), /its public half \("x"\) is not the one its private half \("d"\) derives/);
    const { x: _x, ...privateOnly } = own;
    const bare = join(dir, 'bare.jwk.json');
    await writeFile(bare, JSON.stringify(privateOnly));
    await assert.rejects(loadSigner(bare), /is not a private Ed25519 JWK \(kty OKP, crv Ed25519, d and x\)/);
    const matching = join(dir, 'own.jwk.json');
    await writeFile(matching, JSON.stringify(own));
    await writeFile(join(dir, 'verdict.txt'), 'qualified');
    const path = await writeBundle(dir, ['verdict.txt'], predicate('qualified'), await loadSigner(matching));
    assert.deepEqual((await verifyBundle(path, rederive)).problems, []);
  });

  it('detects a changed result file', async () => {
    const { dir, path } = await signedRun();
    await writeFile(join(dir, 'result.json'), '{"cases":[1]}');
    const report = await verifyBundle(path, rederive);
    assert.equal(report.ok, false);
    assert.match(report.problems.join('\n'), /result\.json does not match/);
  });

  it('detects a removed result file', async () => {
    const { dir, path } = await signedRun();
    await rm(join(dir, 'result.json'));
    assert.match((await verifyBundle(path, rederive)).problems.join('\n'), /result\.json is missing/);
  });

  it('detects an altered verdict in the envelope', async () => {
    const { path } = await signedRun('non-conformant');
    const envelope = JSON.parse(await readFile(path, 'utf8'));
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'));
    statement.predicate.verdict = 'qualified';
    envelope.payload = Buffer.from(JSON.stringify(statement)).toString('base64');
    await writeFile(path, JSON.stringify(envelope));
    const report = await verifyBundle(path, rederive);
    assert.equal(report.ok, false);
    assert.match(report.problems.join('\n'), /signature does not verify/);
  });

  it('detects results that no longer support the signed verdict', async () => {
    const { path } = await signedRun('qualified');
    const report = await verifyBundle(path, async () => ({ verdict: 'non-conformant', problems: [] }));
    assert.equal(report.ok, false);
    assert.match(report.problems.join('\n'), /give verdict non-conformant, the bundle claims qualified/);
  });

  it('refuses a bundle re-signed by another key when the expected key is pinned', async () => {
    const { dir, path } = await signedRun();
    const pinned = join(dir, 'pinned.pub.jwk.json');
    await writeFile(pinned, await readFile(join(dir, BUNDLE_PUBLIC_KEY_FILE)));
    const impostor = await loadSigner();
    await writeBundle(dir, ['verdict.txt', 'result.json'], predicate('qualified'), impostor);
    assert.equal((await verifyBundle(path, rederive)).ok, true, 'the bundle is self-consistent');
    const pinnedReport = await verifyBundle(path, rederive, pinned);
    assert.equal(pinnedReport.ok, false);
    assert.equal(pinnedReport.keyPinned, true);
  });
});
