// Bring your own authentication, end to end: a registry that trusts a key the
// harness is not given is tested with the tokens a vendor's command prints.
// The property suites and conformance run on them alone, without --key.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { writeSigningKeys } from '../../contract/tokens.ts';
import { startEmbeddedReference, type EmbeddedReference } from '../../reference/embedded-reference.ts';

const BIN = fileURLToPath(new URL('../../bin/fleetproof.js', import.meta.url));

/** A vendor's token command: signs with the key the registry trusts and notes each call. */
const MINT_SCRIPT = (jose: string) => `
import { readFileSync, appendFileSync } from 'node:fs';
import { importJWK, SignJWT } from ${JSON.stringify(jose)};
const [keyPath, roles, tenant, log] = process.argv.slice(2);
const jwk = JSON.parse(readFileSync(keyPath, 'utf8'));
const claims = { scope: roles.split(',').filter(Boolean).join(' ') };
if (tenant) claims.tenant_id = tenant;
const now = Math.floor(Date.now() / 1000);
const token = await new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', kid: jwk.kid, typ: 'JWT' }).setAudience('fleetproof-registry').setIssuedAt(now).setExpirationTime(now + 600).sign(await importJWK(jwk, 'EdDSA'));
appendFileSync(log, roles + ' ' + tenant + '\\n');
process.stdout.write(token + '\\n');
`;

function fleetproof(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('FLEETPROOF_') || k.startsWith('FLEETPROOF_TEST')),
  );
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env, timeout: 240_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

let dir: string;
let reference: EmbeddedReference;
let tokenCmd: string;
let untrustedKey: string;
let log: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fleetproof-own-auth-'));
  reference = await startEmbeddedReference();
  untrustedKey = (await writeSigningKeys(join(dir, 'untrusted'))).signingKeyPath;
  const script = join(dir, 'mint.mjs');
  await writeFile(script, MINT_SCRIPT(import.meta.resolve('jose')));
  log = join(dir, 'calls.log');
  tokenCmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(script)} ${JSON.stringify(reference.signingKeyPath)} {roles} {tenant} ${JSON.stringify(log)}`;
});
after(async () => {
  await reference?.close();
  await rm(dir, { recursive: true, force: true });
});

const calls = async () => (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean);

describe('--token-cmd', () => {
  it('properties runs against a target with no --key, on the tokens the command prints', async () => {
    const ran = await fleetproof([
      'properties',
      '--target',
      reference.url,
      '--token-cmd',
      tokenCmd,
      '--suite',
      'pinned-routes',
      '--runs',
      '1',
      '--out',
      join(dir, 'props'),
    ]);
    assert.equal(ran.code, 0, `${ran.stdout}\n${ran.stderr}`);
    assert.ok((await calls()).length > 0, 'the token command was run');
  });

  it("conformance speaks with the command's tokens and needs no --key; minted tokens from an untrusted key are refused", async () => {
    const id = 'routing/assignment-fields-come-from-their-sources';
    const own = await fleetproof([
      'conform',
      '--target',
      reference.url,
      '--token-cmd',
      tokenCmd,
      '--case',
      id,
      '--out',
      join(dir, 'c-own'),
    ]);
    assert.equal(own.code, 0, `${own.stdout}\n${own.stderr}`);
    const minted = await fleetproof([
      'conform',
      '--target',
      reference.url,
      '--key',
      untrustedKey,
      '--case',
      id,
      '--out',
      join(dir, 'c-minted'),
    ]);
    assert.equal(minted.code, 2, 'tokens from a key the registry does not trust are refused at preflight');
    const both = await fleetproof([
      'conform',
      '--target',
      reference.url,
      '--key',
      untrustedKey,
      '--token-cmd',
      tokenCmd,
      '--case',
      id,
      '--out',
      join(dir, 'c-both'),
    ]);
    assert.equal(both.code, 2, 'a key given beside the command must be trusted too, or its forged tokens prove nothing');
    assert.match(both.stderr, /by --key, while it accepts the token command \(--token-cmd\)/);
  });

  it('conform and certify refuse --header alone: every request would be the same caller', async () => {
    for (const command of ['conform', 'certify']) {
      const ran = await fleetproof([
        command,
        '--target',
        reference.url,
        '--header',
        'X-Api-Key: s3cret',
        '--out',
        join(dir, `h-${command}`),
      ]);
      assert.equal(ran.code, 2, `${command}: ${ran.stdout}\n${ran.stderr}`);
      assert.match(
        ran.stderr,
        /--header alone makes every request the same caller, but the cases speak as many tenants and roles: add --token-cmd/,
      );
    }
  });

  it('a malformed --header is one line naming the fix, exit 2', async () => {
    const ran = await fleetproof(['load', '--target', reference.url, '--header', 'no-colon']);
    assert.equal(ran.code, 2);
    assert.match(ran.stderr, /--header "no-colon" is not "Name: value"; write it as --header 'X-Api-Key: secret'/);
  });
});
