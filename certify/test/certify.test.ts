// `fleetproof certify` end to end against real registries over HTTP: the
// reference qualifies and its signed run verifies; a registry with a broken
// fence is non-conformant, with the clause and a reproduction; an unreachable
// target could not be judged. Tampering with any signed file, or re-signing
// results that no longer support the verdict, is detected. The reports render
// offline in headless Chromium at phone and desktop widths.
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startEmbeddedTarget } from '../../cli/embedded-target.ts';
import { EXEMPT_CLAUSES } from '../../conformance/lint/config.ts';
import { writeSigningKeys } from '../../contract/tokens.ts';
import { startDefectiveReference } from '../../reference/defects/defective.ts';
import { startEmbeddedReference } from '../../reference/embedded-reference.ts';
import { BUNDLE_FILE, loadSigner, verifyBundle, writeBundle } from '../../reports/bundle/bundle.ts';
import type { Statement } from '../../reports/bundle/statement.ts';
import { documentProblems, schemaUrl } from '../../reports/test/schema-validation.ts';
import { checkRendering, chromiumMissing, READABLE_PX } from '../../reports/test/browser.ts';
import type { CertificationResult } from '../../reports/schemas/certification-result.ts';
import { runCertification } from '../run-certification.ts';
import { rederiveVerdict } from '../verdict.ts';

const root = await mkdtemp(join(tmpdir(), 'fleetproof-certify-'));
after(() => rm(root, { recursive: true, force: true }));
const quiet = () => {};
const verify = (dir: string, pubkey?: string) => verifyBundle(join(dir, BUNDLE_FILE), rederiveVerdict, pubkey);

async function readResult(dir: string): Promise<CertificationResult> {
  return JSON.parse(await readFile(join(dir, 'result.json'), 'utf8')) as CertificationResult;
}

async function assertRendersCleanly(dir: string): Promise<void> {
  const missing = chromiumMissing();
  // CI installs Chromium (.ci/run), so there the check always runs; a developer machine without it skips only this part.
  if (missing && process.env['CI']) assert.fail(missing);
  if (missing) return console.log(`report rendering not checked: ${missing}`);
  for (const check of await checkRendering(join(dir, 'report.html'))) {
    assert.deepEqual(check.consoleErrors, [], `${check.viewport}: console errors`);
    assert.deepEqual(check.requests, [], `${check.viewport}: the page fetched something`);
    assert.ok(check.horizontalOverflow <= 0, `${check.viewport}: the page is ${check.horizontalOverflow}px wider than the viewport`);
    assert.deepEqual(check.smallText, [], `${check.viewport}: text under ${READABLE_PX} px`);
    if (check.viewport === 'phone') assert.deepEqual(check.cellsOutside, [], 'table cells outside the phone');
    assert.match(check.title, /fleetproof certification/);
  }
}

describe('fleetproof certify', { concurrency: true }, () => {
  it('qualifies the reference, signs every result file, and verification catches tampering', async () => {
    const out = join(root, 'reference');
    const outcome = await runCertification({ out, log: quiet, startEmbedded: startEmbeddedTarget });
    const r = outcome.result;
    assert.deepEqual(r.reasons, []);
    assert.equal(outcome.exitCode, 0);
    // The faults stage exercised the storage-failure clause through the proxy's lost answers.
    assert.equal(r.clauses.find((c) => c.id === 'failure-storage')?.status, 'pass');
    assert.equal(
      r.clauses.find((c) => c.id === 'failure-indeterminate')?.status,
      'pass',
      'the faults stage read back every answer it took away',
    );
    assert.equal(r.verdict, 'qualified');
    assert.deepEqual(
      r.stages.map((s) => [s.name, s.status]),
      [
        ['conformance', 'passed'],
        ['properties', 'passed'],
        ['faults', 'passed'],
        ['load', 'passed'],
      ],
    );
    assert.equal(documentProblems(schemaUrl('certification-result.v1.schema.json'), await readResult(out)), null);
    // The clauses no black-box case can test are the lint's exemptions; every other required clause holds.
    const unheld = r.clauses.filter((c) => c.severity === 'required' && c.status !== 'pass' && !Object.hasOwn(EXEMPT_CLAUSES, c.id));
    assert.deepEqual(
      unheld.map((c) => `${c.id}: ${c.status}`),
      [],
      'every required clause is covered and holds',
    );
    assert.ok(
      r.clauses.some((c) => c.cases.length > 0 && c.properties.length > 0),
      'clauses list both cases and properties',
    );
    // One run id for the whole certification: every stage's document carries the certification's.
    for (const file of ['conformance/result.json', 'properties/result.json', 'load/summary.json'])
      assert.equal(JSON.parse(await readFile(join(out, file), 'utf8')).run_id, r.run_id, `${file} has the run's id`);
    const junit = await readFile(join(out, 'junit.xml'), 'utf8');
    for (const stage of ['conformance', 'properties', 'faults', 'load']) assert.match(junit, new RegExp(`<testsuite name="${stage}[".]`));
    assert.match(await readFile(join(out, 'report.md'), 'utf8'), /^# fleetproof certification: QUALIFIED/);

    const clean = await verify(out);
    assert.deepEqual(clean.problems, []);
    assert.equal(clean.verdict, 'qualified');
    const statement = JSON.parse(
      Buffer.from(JSON.parse(await readFile(join(out, BUNDLE_FILE), 'utf8')).payload, 'base64').toString(),
    ) as Statement;
    const signed = statement.subject.map((s) => s.name);
    for (const file of [
      'result.json',
      'report.html',
      'junit.xml',
      'conformance/result.json',
      'properties/result.json',
      'faults/result.json',
      'load/summary.json',
    ])
      assert.ok(signed.includes(file), `${file} is signed`);

    for (const file of ['properties/result.json', 'report.html', 'load/summary.json']) {
      const copy = join(root, `tampered-${file.replace(/\W/g, '-')}`);
      await cp(out, copy, { recursive: true });
      await writeFile(join(copy, file), (await readFile(join(copy, file), 'utf8')).replace(/pass/, 'fail'));
      const report = await verify(copy);
      assert.equal(report.ok, false, `a changed ${file} goes unnoticed`);
      assert.match(report.problems.join('\n'), new RegExp(`${file.replace('.', '\\.')} does not match`));
    }

    // A result.json no longer JSON, or listing three stages: no verdict derives from it, and verify says so rather than throwing.
    for (const [name, text] of [
      ['not-json', '{ "verdict": "qualified", '],
      ['three-stages', JSON.stringify({ ...r, stages: r.stages.slice(0, 3) })],
    ] as const) {
      const copy = join(root, `result-${name}`);
      await cp(out, copy, { recursive: true });
      await writeFile(join(copy, 'result.json'), text);
      const report = await verify(copy);
      assert.equal(report.ok, false, name);
      assert.match(
        report.problems.join('\n'),
        name === 'not-json'
          ? /cannot read result\.json/
          : /result\.json lists the stages .*, not each of conformance, properties, faults, load once/,
        name,
      );
    }

    // Re-signing altered results with another key: consistent digests, but
    // the stored results no longer give the verdict, and the pinned key fails.
    const forged = join(root, 'forged');
    await cp(out, forged, { recursive: true });
    const conformance = JSON.parse(await readFile(join(forged, 'conformance/result.json'), 'utf8'));
    const victim = conformance.cases.find((c: { severity: string }) => c.severity === 'required');
    victim.status = 'fail';
    victim.failure_clause = victim.clause;
    await writeFile(join(forged, 'conformance/result.json'), JSON.stringify(conformance));
    await writeBundle(forged, signed, statement.predicate, await loadSigner());
    const forgedReport = await verify(forged);
    assert.equal(forgedReport.ok, false);
    assert.match(forgedReport.problems.join('\n'), /conformance: the stored results say failed, result\.json says passed/);
    assert.equal((await verify(forged, join(out, 'bundle.pub.jwk.json'))).ok, false, 'the original signer did not sign the forgery');

    await assertRendersCleanly(out);
  });

  it('finds a registry that settles without the fence comparison non-conformant, with the clause and a reproduction', async () => {
    const reference = await startDefectiveReference('settle-skip-fence');
    const out = join(root, 'broken');
    try {
      const outcome = await runCertification({ target: { url: reference.url, keyPath: reference.signingKeyPath }, out, log: quiet });
      assert.equal(outcome.exitCode, 1);
      assert.equal(outcome.result.verdict, 'non-conformant');
      assert.equal(outcome.result.stages[0]!.status, 'failed');
      const fence = outcome.result.failures.find((f) => f.stage === 'conformance' && f.clause === 'settle-fence');
      assert.ok(
        fence,
        `no conformance failure cites settle-fence: ${JSON.stringify(outcome.result.failures.map((f) => [f.subject, f.clause]))}`,
      );
      assert.match(fence.reproduce, new RegExp(`npx fleetproof conform --target ${reference.url} --key \\S+ --case `));
      assert.match(fence.reproduce, /POST .*\/settlement/, 'the failing exchange is shown');
      assert.ok(outcome.result.clauses.find((c) => c.id === 'settle-fence')!.status === 'fail');
      assert.ok(
        outcome.result.failures.some((f) => f.stage === 'properties' && /--seed=-?\d+ --path/.test(f.reproduce)),
        'a property counterexample comes with its seed and path',
      );
      const report = await verify(out);
      assert.deepEqual(report.problems, [], 'an honest non-conformant run verifies');
      assert.equal(report.verdict, 'non-conformant');
      await assertRendersCleanly(out);
    } finally {
      await reference.close();
    }
  });

  it('could not judge an unreachable target, and says so in a signed result', async () => {
    const { signingKeyPath, close } = await startEmbeddedReference();
    const out = join(root, 'unreachable');
    try {
      const outcome = await runCertification({ target: { url: 'http://127.0.0.1:9', keyPath: signingKeyPath }, out, log: quiet });
      assert.equal(outcome.exitCode, 2);
      assert.equal(outcome.result.verdict, 'could-not-run');
      assert.deepEqual(
        outcome.result.stages.map((s) => s.status),
        ['could-not-run', 'skipped', 'skipped', 'skipped'],
      );
      assert.deepEqual((await verify(out)).problems, []);
    } finally {
      await close();
    }
  });

  it('could not judge with a key the target does not trust: one line naming the fix, and no stage run', async () => {
    const reference = await startEmbeddedReference();
    const out = join(root, 'untrusted');
    const keys = await writeSigningKeys(join(root, 'stranger'));
    try {
      const outcome = await runCertification({ target: { url: reference.url, keyPath: keys.signingKeyPath }, out, log: quiet });
      assert.deepEqual([outcome.exitCode, outcome.result.verdict], [2, 'could-not-run']);
      assert.deepEqual(
        outcome.result.stages.map((s) => s.status),
        ['could-not-run', 'skipped', 'skipped', 'skipped'],
      );
      assert.match(
        outcome.result.stages[0]!.reasons.join('\n'),
        new RegExp(
          `^the target refused a token signed with kid=\\S+ \\(role registry:admin\\): configure it to trust ${keys.jwksPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(audience fleetproof-registry\\)$`,
        ),
      );
      assert.deepEqual(outcome.result.failures, [], 'nothing is blamed on the registry');
    } finally {
      await reference.close();
    }
  });
});
