// Lints a tree of conformance cases: every per-file rule on every case, then
// the suite rules (duplicate ids, clause coverage, error-code coverage,
// exemptions). `npm test` runs it over conformance/cases through lint.test.ts;
// `tsx conformance/lint/lint.ts` prints the findings for an author.
import { fileURLToPath } from 'node:url';
import type { Clause } from '../../contract/clauses.ts';
import { clauses } from '../../contract/clauses.ts';
import { ERROR_CATALOGUE } from '../../contract/errors.ts';
import { CASES_ROOT, findCaseFiles, readCaseFile } from './case-files.ts';
import { EXEMPT_CLAUSES } from './config.ts';
import { expectedCodes } from './expected-codes.ts';
import { lintSuite, type Diagnostic } from './rules.ts';

export interface LintOptions {
  root?: string;
  clauses?: ReadonlyMap<string, Clause>;
  exemptions?: Readonly<Record<string, string>>;
  provokableCodes?: readonly string[];
}

export const PROVOKABLE_CODES = Object.entries(ERROR_CATALOGUE)
  .filter(([, e]) => e.provokable)
  .map(([code]) => code);

export async function lintTree(options: LintOptions = {}): Promise<Diagnostic[]> {
  const root = options.root ?? CASES_ROOT;
  const files = await Promise.all(findCaseFiles(root).map((p) => readCaseFile(p, root)));
  return lintSuite({
    files,
    clauses: options.clauses ?? clauses(),
    exemptions: options.exemptions ?? EXEMPT_CLAUSES,
    provokableCodes: options.provokableCodes ?? PROVOKABLE_CODES,
    expectedCodes: (file) => expectedCodes(file.source, file.relative),
  });
}

export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file || '(suite)'}: ${d.code} ${d.message}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const found = await lintTree();
  for (const d of found) console.log(formatDiagnostic(d));
  console.log(found.length === 0 ? 'conformance cases: no lint findings' : `${found.length} lint findings`);
  process.exitCode = found.length === 0 ? 0 : 1;
}
