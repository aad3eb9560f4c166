// What a conformance run on a vendor's token command, without the trusted
// key, must show (checked on `certify --token-cmd` at a terminal,
// certify/test/without-key.test.ts, whose conformance stage is that run):
// exactly the cases only the trusted key can provoke skip, with the reason,
// in every report; the cases a stranger's or an edited token provokes run
// and pass; the clauses only the skipped cases cover are unexercised.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NEEDS_TRUSTED_KEY } from '../harness/failure.ts';
import type { ConformanceResult } from '../runner/result.ts';
import { junitSchemaProblems } from '../../reports/junit/test/junit-xsd.ts';

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

/** Tokens signed by a stranger, and a valid token edited, need no trusted key. */
const WITHOUT_THE_KEY = [
  'auth-and-isolation/bad-signature-is-unauthenticated',
  'auth-and-isolation/unsigned-token-is-unauthenticated',
  'auth-and-isolation/other-tenants-route-reads-as-never-routed',
  'auth-and-isolation/missing-role-is-forbidden',
];

/** Checks the conformance reports written into `dir` by a qualified run without --key. */
export async function assertKeylessConformance(dir: string): Promise<void> {
  const result = JSON.parse(await readFile(join(dir, 'result.json'), 'utf8')) as ConformanceResult;
  const skipped = result.cases.filter((c) => c.status === 'skip');
  assert.deepEqual(skipped.map((c) => c.id).sort(), NEED_THE_KEY);
  for (const c of skipped) assert.ok(c.message?.startsWith(`${NEEDS_TRUSTED_KEY}: `), `${c.id}: ${c.message}`);
  assert.deepEqual(
    result.cases.filter((c) => c.status !== 'pass' && c.status !== 'skip').map((c) => `${c.status} ${c.id}: ${c.message}`),
    [],
  );
  assert.deepEqual([result.verdict, result.selection.complete], ['qualified', true]);
  for (const id of WITHOUT_THE_KEY) assert.equal(result.cases.find((c) => c.id === id)?.status, 'pass', id);
  for (const id of ['auth-time', 'auth-audience']) assert.equal(result.clauses.find((c) => c.id === id)?.status, 'skip', id);
  assert.equal(result.config['key'], null);
  for (const file of ['report.md', 'report.html', 'junit.xml']) {
    const text = await readFile(join(dir, file), 'utf8');
    assert.ok(text.includes('trusted signing key (--key), which --token-cmd and --header cannot stand in for'), `${file} gives the reason`);
    for (const c of skipped) assert.ok(text.includes(c.id), `${file} lists the skip of ${c.id}`);
  }
  assert.deepEqual(await junitSchemaProblems(await readFile(join(dir, 'junit.xml'), 'utf8')), [], 'junit.xml is valid under junit-10.xsd');
}
