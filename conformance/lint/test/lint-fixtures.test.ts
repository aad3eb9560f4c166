// The lint tested test262-style on small bad fixtures, each of which names
// the lint codes it must trigger (a `// lint-expect:` line for a file,
// `expect` in fixture.json for a whole tree). cases.test.ts runs the same
// lint over the real cases.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { clauses } from '../../../contract/clauses.ts';
import { findCaseFiles } from '../case-files.ts';
import { expectedCodes } from '../expected-codes.ts';
import { formatDiagnostic, lintTree } from '../lint.ts';
import { LINT_CODES, type LintCode } from '../rules.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

function expectLine(path: string): string[] {
  const line = readFileSync(path, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('// lint-expect:'));
  assert.ok(line, `${path} names no lint code (// lint-expect: CODE ... or none)`);
  const codes = line.replace('// lint-expect:', '').trim().split(/\s+/);
  return codes[0] === 'none' ? [] : codes;
}

describe('conformance lint on its fixtures', () => {
  it('flags each per-file fixture with exactly the codes it names', async () => {
    const root = join(FIXTURES, 'per-file', 'cases');
    const found = (await lintTree({ root, exemptions: {}, provokableCodes: [] })).filter((d) => d.file !== '');
    const seen = new Set<LintCode>();
    for (const path of findCaseFiles(root)) {
      const rel = path
        .slice(root.length + 1)
        .split('\\')
        .join('/');
      const codes = found.filter((d) => d.file === rel).map((d) => d.code);
      codes.forEach((c) => seen.add(c));
      assert.deepEqual([...codes].sort(), expectLine(path).sort(), rel);
    }
    const perFile = (Object.keys(LINT_CODES) as LintCode[]).filter(
      (c) => !['CLAUSE_UNCOVERED', 'CODE_UNEXPECTED', 'EXEMPTION_INVALID'].includes(c),
    );
    assert.deepEqual(
      perFile.filter((c) => !seen.has(c)),
      [],
      'every per-file rule has a fixture that triggers it',
    );
  });

  for (const scenario of readdirSync(join(FIXTURES, 'suite'))) {
    it(`suite fixture ${scenario} triggers exactly what its fixture.json names`, async () => {
      const dir = join(FIXTURES, 'suite', scenario);
      const spec = JSON.parse(readFileSync(join(dir, 'fixture.json'), 'utf8')) as {
        clauses: string[];
        exemptions: Record<string, string>;
        provokable: string[];
        expect: string[];
      };
      const subset = new Map(spec.clauses.map((id) => [id, clauses().get(id)!]));
      const found = await lintTree({
        root: join(dir, 'cases'),
        clauses: subset,
        exemptions: spec.exemptions,
        provokableCodes: spec.provokable,
      });
      assert.deepEqual(found.map((d) => d.code).sort(), [...spec.expect].sort(), found.map(formatDiagnostic).join('\n'));
    });
  }

  it('reads expected codes from expectError calls only', () => {
    const source =
      "expectError(await x.call('a', { b: 1 }), 'FENCE_LOST'); other(r, 'CONFLICT'); ctx.h.expectError(r, 'STALE_CURSOR', { scope: 'x' });";
    assert.deepEqual(expectedCodes(source), ['FENCE_LOST', 'STALE_CURSOR']);
  });
});
