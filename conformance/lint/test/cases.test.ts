// The lint over the real cases, as part of `npm test`: every case's metadata
// is sound, every MUST clause has a case unless it is on the short exemption
// list, and every provokable error code of the catalogue is expected by a case.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { clauses } from '../../../contract/clauses.ts';
import { CASES_ROOT, findCaseFiles } from '../case-files.ts';
import { EXEMPT_CLAUSES } from '../config.ts';
import { expectedCodes } from '../expected-codes.ts';
import { formatDiagnostic, lintTree, PROVOKABLE_CODES } from '../lint.ts';

describe('conformance cases', () => {
  it('pass every lint rule, coverage included', async () => {
    const found = await lintTree();
    assert.deepEqual(found.map(formatDiagnostic), []);
  });

  it('expect every provokable error code, and exempt only a few MUST clauses', () => {
    const sources = findCaseFiles(CASES_ROOT).map((p) => readFileSync(p, 'utf8'));
    const expected = new Set(sources.flatMap((s) => expectedCodes(s)));
    assert.deepEqual(
      PROVOKABLE_CODES.filter((c) => !expected.has(c)),
      [],
    );
    const exempt = Object.keys(EXEMPT_CLAUSES);
    assert.ok(exempt.length <= 3, `the exemption list stays small: ${exempt.join(', ')}`);
    for (const id of exempt) assert.equal(clauses().get(id)?.keyword, 'MUST', `${id} is a MUST clause`);
  });
});
