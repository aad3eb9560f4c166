// A registry that cannot trust the harness's JWK set is tested with the tokens
// its vendor's command prints, and no --key: the cases that must sign a token
// with special claims skip with their reason, every other case runs (tenant
// isolation on the command's {tenant} and {roles}, tokens signed by a
// stranger), and the run qualifies the reference.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { NEEDS_TRUSTED_KEY } from '../harness/failure.ts';
import { runConformance } from '../runner/run.ts';
import { writeConformanceReports } from '../../reports/conformance/write.ts';
import { startReferenceTarget, type ReferenceTarget } from './reference-target.ts';
import { junitSchemaProblems } from '../../reports/junit/test/junit-xsd.ts';
import { startTokenService, type TokenService } from './token-command.ts';

/** The cases whose tokens only the trusted key can sign. */
const NEED_THE_KEY = [
  'auth-and-isolation/expired-token-is-unauthenticated',
  'auth-and-isolation/not-yet-valid-token-is-unauthenticated',
  'auth-and-isolation/other-algorithms-are-unauthenticated',
  'auth-and-isolation/token-used-before-exp-is-refused-after-it',
  'auth-and-isolation/token-valid-for-seconds-more-is-accepted',
  'auth-and-isolation/token-without-exp-is-unauthenticated',
  'auth-and-isolation/wrong-audience-is-unauthenticated',
];

let dir: string;
let target: ReferenceTarget;
let service: TokenService;
let tokenCmd: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fleetproof-without-key-'));
  target = await startReferenceTarget();
  service = await startTokenService(target.key);
  tokenCmd = service.tokenCmd;
});
after(async () => {
  await service?.close();
  await target?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('conform with --token-cmd and no --key', () => {
  it('qualifies the reference; the cases that need the trusted key skip with the reason, in every report', async () => {
    const out = join(dir, 'run');
    const outcome = await runConformance({
      config: target.config({ keyFile: null, out }),
      auth: { tokenCommand: tokenCmd },
      writeReports: writeConformanceReports,
    });
    const result = outcome.result;
    assert.ok(result, outcome.error);
    const skipped = result.cases.filter((c) => c.status === 'skip');
    assert.deepEqual(skipped.map((c) => c.id).sort(), NEED_THE_KEY);
    for (const c of skipped) assert.ok(c.message?.startsWith(`${NEEDS_TRUSTED_KEY}: `), `${c.id}: ${c.message}`);
    assert.deepEqual(
      result.cases.filter((c) => c.status !== 'pass' && c.status !== 'skip').map((c) => `${c.status} ${c.id}: ${c.message}`),
      [],
    );
    assert.deepEqual([outcome.exitCode, result.verdict, result.selection.complete], [0, 'qualified', true]);
    assert.ok(service.issued() > 0, 'the token command gave the tokens');
    // One token source for the run: the preflight's tokens are the ones the cases then present, each asked for once.
    assert.deepEqual(
      [...service.issuedPerCaller()].filter(([, n]) => n > 1),
      [],
    );
    assert.ok(service.issuedPerCaller().has('registry:admin '), 'the preflight asked for the roles the run uses');
    // Tokens signed by a stranger, and a valid token edited, need no trusted key.
    for (const id of [
      'auth-and-isolation/bad-signature-is-unauthenticated',
      'auth-and-isolation/unsigned-token-is-unauthenticated',
      'auth-and-isolation/other-tenants-route-reads-as-never-routed',
      'auth-and-isolation/missing-role-is-forbidden',
    ]) {
      assert.equal(result.cases.find((c) => c.id === id)?.status, 'pass', id);
    }
    // The clauses only those cases cover are unexercised.
    for (const id of ['auth-time', 'auth-audience']) assert.equal(result.clauses.find((c) => c.id === id)?.status, 'skip', id);
    assert.equal(result.config['key'], null);
    for (const file of ['report.md', 'report.html', 'junit.xml']) {
      const text = await readFile(join(out, file), 'utf8');
      assert.ok(
        text.includes('trusted signing key (--key), which --token-cmd and --header cannot stand in for'),
        `${file} gives the reason`,
      );
      for (const c of skipped) assert.ok(text.includes(c.id), `${file} lists the skip of ${c.id}`);
    }
    assert.deepEqual(
      await junitSchemaProblems(await readFile(join(out, 'junit.xml'), 'utf8')),
      [],
      'junit.xml is valid under junit-10.xsd',
    );
  });

  it('a key the target does not trust, given beside the command, is could not run naming the fix', async () => {
    const { generateSigningKeys, signingKeyFromJwk } = await import('../../contract/tokens.ts');
    const stranger = await signingKeyFromJwk((await generateSigningKeys()).privateJwk);
    const outcome = await runConformance({
      config: target.config({ keyFile: '/keys/signing-key.jwk.json', cases: ['operations/health-answers-without-a-token'] }),
      signingKey: stranger,
      auth: { tokenCommand: tokenCmd },
      writeReports: false,
    });
    assert.equal(outcome.exitCode, 2);
    assert.match(
      outcome.error!,
      new RegExp(
        `^the target refused a token signed with kid=${stranger.kid} by --key, while it accepts the token command \\(--token-cmd\\): configure it to trust /keys/jwks.json`,
      ),
    );
  });
});
