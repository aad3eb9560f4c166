// How the runner turns case outcomes into statuses, verdicts and exit codes,
// on a small tree of fixture cases against the reference: a ConformanceFailure
// fails, anything else thrown errors, a timeout errors, a missing feature
// skips, broken metadata errors without running, SHOULD failures do not block
// qualification, a run whose every case skipped judges nothing, and a target
// that cannot be reached is exit 2.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { writeConformanceReports } from '../../reports/conformance/write.ts';
import { generateSigningKeys, signingKeyFromJwk } from '../../contract/tokens.ts';
import { ONE_CALLER } from '../runner/connection.ts';
import { runConformance } from '../runner/run.ts';
import { startReferenceTarget, type ReferenceTarget } from './reference-target.ts';
import { resultSchemaProblems } from './result-schema.ts';

const casesRoot = fileURLToPath(new URL('./fixtures/cases/', import.meta.url));
let target: ReferenceTarget;
let out: string;

before(async () => {
  target = await startReferenceTarget();
  out = await mkdtemp(join(tmpdir(), 'fleetproof-runner-'));
});
after(async () => {
  await target.close();
  await rm(out, { recursive: true, force: true });
});

describe('conformance runner', () => {
  it('classifies every outcome and rolls it up', async () => {
    const outcome = await runConformance({
      config: target.config({ out, features: [], timeoutMs: 500 }),
      signingKey: target.key,
      casesRoot,
    });
    const result = outcome.result!;
    const status = Object.fromEntries(result.cases.map((c) => [c.id, c.status]));
    assert.deepEqual(status, {
      'operations/breaks-another-clause': 'fail',
      'operations/fails': 'fail',
      'operations/keeps-exchanging': 'error',
      'operations/needs-metrics': 'skip',
      'operations/passes': 'pass',
      'operations/never-stops-exchanging': 'error',
      'operations/throws-a-type-error': 'error',
      'operations/times-out': 'error',
      'wire/broken-metadata': 'error',
      'wire/recommended-failure': 'fail',
    });
    const byId = new Map(result.cases.map((c) => [c.id, c]));
    assert.match(byId.get('operations/throws-a-type-error')!.message!, /TypeError/);
    assert.match(byId.get('operations/times-out')!.message!, /timed out after 500 ms/);
    assert.match(byId.get('wire/broken-metadata')!.message!, /ID_MISMATCH/);
    assert.equal(byId.get('operations/fails')!.exchange?.request.url.endsWith('/ready'), true, 'a failure carries its exchange');
    assert.equal(byId.get('operations/breaks-another-clause')!.failure_clause, 'error-body');
    const clause = (id: string) => result.clauses.find((c) => c.id === id)!;
    assert.deepEqual([clause('error-body').status, clause('error-body').failed_by], ['fail', ['operations/breaks-another-clause']]);
    assert.equal(clause('ops-health').status, 'error', 'error outranks pass');
    assert.equal(clause('failure-storage').exempt !== null, true);
    assert.equal(result.categories.find((c) => c.id === 'operations')!.status, 'error');
    assert.deepEqual([outcome.exitCode, result.verdict, result.summary.blocking], [1, 'non-conformant', 7]);
    assert.equal(result.selection.complete, false, 'overridden features make a run partial');
    assert.equal(resultSchemaProblems(result), null);
  });

  it('counts the limit of a case from its last exchange, up to a ceiling', async () => {
    const config = target.config({ cases: ['operations/keeps-exchanging', 'operations/never-stops-exchanging'], timeoutMs: 1000 });
    const outcome = await runConformance({ config, signingKey: target.key, casesRoot, writeReports: false });
    const byId = new Map(outcome.result!.cases.map((c) => [c.id, c]));
    assert.equal(byId.get('operations/keeps-exchanging')!.status, 'pass', byId.get('operations/keeps-exchanging')!.message ?? '');
    const endless = byId.get('operations/never-stops-exchanging')!;
    assert.equal(endless.status, 'error');
    assert.match(endless.message!, /timed out after 4000 ms, 4 times its limit, though it kept exchanging/);
    assert.deepEqual(outcome.result!.config['case_limit'], { quiet_ms: 1000, slow_factor: 4, pace_ceiling: 4 });
  });

  it('qualifies when only SHOULD cases fail', async () => {
    const config = target.config({ cases: ['operations/passes', 'wire/recommended-failure'] });
    const outcome = await runConformance({ config, signingKey: target.key, casesRoot, writeReports: false });
    assert.deepEqual([outcome.exitCode, outcome.result!.verdict, outcome.result!.summary.fail], [0, 'qualified', 1]);
  });

  it('judges nothing when every selected case skipped', async () => {
    // Before, a selection that only skipped printed QUALIFIED (partial run): a verdict resting on no case at all.
    const config = target.config({ cases: ['operations/needs-metrics'], features: [] });
    const outcome = await runConformance({ config, signingKey: target.key, casesRoot, writeReports: false });
    assert.deepEqual([outcome.exitCode, outcome.result!.verdict, outcome.result!.summary.skip], [2, 'could-not-judge', 1]);
  });

  it('writes result.json, junit.xml, report.md and a self-contained report.html', async () => {
    const dir = join(out, 'reports');
    await runConformance({
      config: target.config({ out: dir, timeoutMs: 500 }),
      signingKey: target.key,
      casesRoot,
      writeReports: writeConformanceReports,
    });
    const result = JSON.parse(await readFile(join(dir, 'result.json'), 'utf8'));
    assert.equal(resultSchemaProblems(result), null);
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    assert.ok(html.indexOf('NON-CONFORMANT') !== -1 && html.indexOf('NON-CONFORMANT') < html.indexOf('Clauses'), 'the verdict comes first');
    assert.doesNotMatch(html, /<script|<link|<img|@import|(src|href)="(https?:)?\/\//i, 'nothing is fetched from the network');
    assert.match(html, /GET http:\/\/127\.0\.0\.1:\d+\/ready/, 'failures show their exchanges');
    const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
    assert.equal((junit.match(/<testcase /g) ?? []).length, result.cases.length);
    assert.equal((junit.match(/<failure /g) ?? []).length, result.summary.fail);
    assert.match(await readFile(join(dir, 'report.md'), 'utf8'), /^# fleetproof conformance: NON-CONFORMANT/);
  });

  it('could not run (exit 2): unreachable target, unknown case, bad key file', async () => {
    const unreachable = await runConformance({
      config: target.config({ target: 'http://127.0.0.1:1' }),
      signingKey: target.key,
      casesRoot,
      writeReports: false,
    });
    assert.equal(unreachable.exitCode, 2);
    assert.match(unreachable.error!, /^the target http:\/\/127\.0\.0\.1:1 does not answer \(ECONNREFUSED\): start it/);
    const unknown = await runConformance({
      config: target.config({ cases: ['operations/nope'] }),
      signingKey: target.key,
      casesRoot,
      writeReports: false,
    });
    assert.deepEqual([unknown.exitCode, unknown.error], [2, 'no such case: operations/nope']);
    const keyFile = join(out, 'not-a-key.json');
    await writeFile(keyFile, '{"kty":"RSA"}');
    const badKey = await runConformance({ config: target.config({ keyFile }), casesRoot, writeReports: false });
    assert.equal(badKey.exitCode, 2);
    assert.match(badKey.error!, /signing key/);
    const noCredentials = await runConformance({ config: target.config({ keyFile: null }), casesRoot, writeReports: false });
    assert.deepEqual(
      [noCredentials.exitCode, noCredentials.error],
      [2, 'no signing key and no credentials of your own: give --key FILE (or FLEETPROOF_KEY), or --token-cmd / --header'],
    );
    const headersAlone = await runConformance({
      config: target.config({ keyFile: null }),
      auth: { headers: ['X-Api-Key: s3cret'] },
      casesRoot,
      writeReports: false,
    });
    assert.deepEqual([headersAlone.exitCode, headersAlone.error], [2, ONE_CALLER], 'static headers cannot speak as many callers');
  });

  it('could not run (exit 2, one line naming the fix) with a key the target does not trust', async () => {
    const stranger = await signingKeyFromJwk((await generateSigningKeys()).privateJwk);
    const outcome = await runConformance({
      config: target.config({ keyFile: '/keys/signing-key.jwk.json' }),
      signingKey: stranger,
      casesRoot,
      writeReports: false,
    });
    assert.deepEqual([outcome.exitCode, outcome.result], [2, null]);
    assert.equal(
      outcome.error,
      `the target refused a token signed with kid=${stranger.kid} (role registry:admin): configure it to trust /keys/jwks.json (audience fleetproof-registry)`,
    );
  });
});
