// What a qualified certification of the reference holds, checked on the
// folder of a real run (bin/test/installed-package.test.ts certifies from
// the installed package, as a user does, and hands its folder here): every
// stage passed and every required clause holds, every result file is signed,
// verification catches each kind of tampering and a forgery re-signed with
// another key, and the report renders offline in headless Chromium at phone
// and desktop widths.
import assert from 'node:assert/strict';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EXEMPT_CLAUSES } from '../../conformance/lint/config.ts';
import { BUNDLE_FILE, loadSigner, verifyBundle, writeBundle } from '../../reports/bundle/bundle.ts';
import type { Statement } from '../../reports/bundle/statement.ts';
import { checkRendering, chromiumMissing, READABLE_PX } from '../../reports/test/browser.ts';
import { documentProblems, schemaUrl } from '../../reports/test/schema-validation.ts';
import type { CertificationResult } from '../../reports/schemas/certification-result.ts';
import { rederiveVerdict } from '../verdict.ts';

export const verify = (dir: string, pubkey?: string) => verifyBundle(join(dir, BUNDLE_FILE), rederiveVerdict, pubkey);

async function readResult(dir: string): Promise<CertificationResult> {
  return JSON.parse(await readFile(join(dir, 'result.json'), 'utf8')) as CertificationResult;
}

/** Every stage of the run passed, in order. */
export function assertEveryStagePassed(r: CertificationResult): void {
  assert.deepEqual(
    r.stages.map((s) => [s.name, s.status]),
    [
      ['conformance', 'passed'],
      ['properties', 'passed'],
      ['faults', 'passed'],
      ['load', 'passed'],
    ],
  );
}

export async function assertRendersCleanly(dir: string): Promise<void> {
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

/** `out`: the folder of a run that exited 0; `scratch`: where the tampered copies go. */
export async function assertQualifiedRun(out: string, scratch: string): Promise<void> {
  const r = await readResult(out);
  assert.deepEqual(r.reasons, []);
  // The faults stage exercised the storage-failure clause through the proxy's lost answers.
  assert.equal(r.clauses.find((c) => c.id === 'failure-storage')?.status, 'pass');
  assert.equal(
    r.clauses.find((c) => c.id === 'failure-indeterminate')?.status,
    'pass',
    'the faults stage read back every answer it took away',
  );
  assert.equal(r.verdict, 'qualified');
  assertEveryStagePassed(r);
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
    const copy = join(scratch, `tampered-${file.replace(/\W/g, '-')}`);
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
    const copy = join(scratch, `result-${name}`);
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
  const forged = join(scratch, 'forged');
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
}
