// The lint rules of conformance cases, each with a stable code (as test262's
// tools/lint has ESID, FEATURES, ...). Per-file rules check one case's
// metadata against its path and the closed vocabularies; suite rules check
// the tree as a whole: duplicate ids, and that every MUST clause and every
// provokable error code is covered. The runner applies the per-file rules
// when it loads cases, so a malformed case can never run as if it were fine.
import { severityOf, type Clause } from '../../contract/clauses.ts';
import { isConformanceCase, type ConformanceCase } from '../harness/define-case.ts';
import { isCategory, isFeature, isFlag } from '../harness/vocabulary.ts';
import { MAX_CASE_LINES, MAX_DESCRIPTION_LENGTH } from './config.ts';
import { sizeLiterals } from './size-literals.ts';

export const LINT_CODES = {
  NOT_A_CASE: 'the file does not load, or its default export is not a defineCase() result',
  FILE_NAME: 'a case file is cases/<category>/<kebab-case>.case.ts',
  ID_MISMATCH: 'the id is the path under cases/ without .case.ts',
  CATEGORY_UNKNOWN: 'the category is in the closed list of harness/vocabulary.ts',
  CATEGORY_FOLDER: 'the category is the folder the case lives in',
  CLAUSE_UNKNOWN: 'the clause is an anchor of contract/spec.md',
  SEVERITY_MISMATCH: 'the severity is the one the clause keyword implies',
  FEATURE_UNKNOWN: 'features are in the closed FEATURES list of the contract',
  FLAG_UNKNOWN: 'flags are in the closed list of harness/vocabulary.ts',
  FEATURE_ON_REQUIRED: 'a case of a MUST clause needs no optional feature (a vendor could skip it by not declaring one)',
  OPTIONAL_WITHOUT_FEATURE: 'a case of a MAY clause names the feature that enables it',
  DESCRIPTION: `the description is one non-empty line of at most ${MAX_DESCRIPTION_LENGTH} characters`,
  IMPORT_BOUNDARY: 'a case imports nothing from reference/: the suite certifies other implementations',
  CASE_LENGTH: `a case file has at most ${MAX_CASE_LINES} lines: one behaviour per file`,
  SIZE_LITERAL: 'a case takes every size a legal registry could refuse from the limits the target declares',
  DUPLICATE_ID: 'no two cases share an id',
  CLAUSE_UNCOVERED: 'every MUST clause has at least one case, unless exempt',
  CODE_UNEXPECTED: 'every provokable error code of the catalogue is expected by at least one case',
  EXEMPTION_INVALID: 'an exemption names a MUST clause of spec.md without a case, and gives a reason',
} as const;

export type LintCode = keyof typeof LINT_CODES;

export interface Diagnostic {
  code: LintCode;
  /** Path relative to the cases root, or '' for suite-wide findings. */
  file: string;
  message: string;
}

export interface CaseFile {
  /** Path relative to the cases root, with forward slashes: `settlement/x.case.ts`. */
  relative: string;
  source: string;
  /** The module's default export, when it loaded. */
  exported: unknown;
  loadError?: string;
}

const FILE_PATTERN = /^([a-z0-9]+(?:-[a-z0-9]+)*)\/([a-z0-9]+(?:-[a-z0-9]+)*)\.case\.ts$/;
const REFERENCE_IMPORT = /\bfrom\s+['"][^'"]*\/reference\/|\bimport\s*\(\s*['"][^'"]*\/reference\//;

export function idOfPath(relative: string): string {
  return relative.replace(/\.case\.ts$/, '');
}

/** Checks one case file; `clauses` is spec.md's clause map. */
export function lintCaseFile(file: CaseFile, clauses: ReadonlyMap<string, Clause>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = (code: LintCode, message: string) => out.push({ code, file: file.relative, message });
  const pathMatch = FILE_PATTERN.exec(file.relative);
  if (!pathMatch) report('FILE_NAME', `${file.relative} is not <category>/<kebab-case>.case.ts`);
  if (REFERENCE_IMPORT.test(file.source)) report('IMPORT_BOUNDARY', 'imports from reference/');
  const lines = file.source.split('\n').length - (file.source.endsWith('\n') ? 1 : 0);
  if (lines > MAX_CASE_LINES) report('CASE_LENGTH', `${lines} lines; split it into one behaviour per file`);
  for (const found of sizeLiterals(file.source)) report('SIZE_LITERAL', found.message);
  if (file.loadError !== undefined || !isConformanceCase(file.exported)) {
    report('NOT_A_CASE', file.loadError ?? 'the default export is not a defineCase() result');
    return out;
  }
  const c: ConformanceCase = file.exported;
  const expectedId = idOfPath(file.relative);
  if (c.id !== expectedId) report('ID_MISMATCH', `id ${JSON.stringify(c.id)} should be ${JSON.stringify(expectedId)}`);
  if (!isCategory(c.category)) report('CATEGORY_UNKNOWN', `category ${JSON.stringify(c.category)} is not in the closed list`);
  else if (pathMatch && c.category !== pathMatch[1])
    report('CATEGORY_FOLDER', `category ${c.category} but the file is in ${pathMatch[1]}/`);
  const clause = clauses.get(c.clause);
  if (!clause) report('CLAUSE_UNKNOWN', `clause ${JSON.stringify(c.clause)} is not an anchor of spec.md`);
  else if (c.severity !== severityOf(clause.keyword) || c.keyword !== clause.keyword) {
    report('SEVERITY_MISMATCH', `severity ${String(c.severity)} but [${clause.id}] is ${clause.keyword} (${clause.severity})`);
  }
  for (const f of c.features) if (!isFeature(f)) report('FEATURE_UNKNOWN', `feature ${JSON.stringify(f)} is not declared by the contract`);
  for (const f of c.flags) if (!isFlag(f)) report('FLAG_UNKNOWN', `flag ${JSON.stringify(f)} is not in the closed list`);
  if (clause?.severity === 'required' && c.features.length > 0)
    report('FEATURE_ON_REQUIRED', `[${clause.id}] is ${clause.keyword} but the case needs ${c.features.join(', ')}`);
  if (clause?.severity === 'optional' && c.features.length === 0)
    report('OPTIONAL_WITHOUT_FEATURE', `[${clause.id}] is MAY but the case names no feature`);
  if (
    typeof c.description !== 'string' ||
    c.description.trim() === '' ||
    c.description.includes('\n') ||
    c.description.length > MAX_DESCRIPTION_LENGTH
  ) {
    report('DESCRIPTION', `description ${JSON.stringify(c.description).slice(0, 140)}`);
  }
  return out;
}

export interface SuiteInputs {
  files: CaseFile[];
  clauses: ReadonlyMap<string, Clause>;
  exemptions: Readonly<Record<string, string>>;
  /** Codes a conformance case can provoke against a healthy implementation. */
  provokableCodes: readonly string[];
  /** The error codes each file's expectations name (see expected-codes.ts). */
  expectedCodes: (file: CaseFile) => string[];
}

/** Every rule over the whole tree. */
export function lintSuite(inputs: SuiteInputs): Diagnostic[] {
  const out: Diagnostic[] = [];
  const byId = new Map<string, string>();
  const covered = new Set<string>();
  const expected = new Set<string>();
  for (const file of inputs.files) {
    out.push(...lintCaseFile(file, inputs.clauses));
    if (!isConformanceCase(file.exported)) continue;
    const c = file.exported;
    const earlier = byId.get(c.id);
    if (earlier !== undefined)
      out.push({ code: 'DUPLICATE_ID', file: file.relative, message: `id ${c.id} is also declared by ${earlier}` });
    else byId.set(c.id, file.relative);
    covered.add(c.clause);
    for (const code of inputs.expectedCodes(file)) expected.add(code);
  }
  for (const clause of inputs.clauses.values()) {
    if (clause.severity === 'required' && !covered.has(clause.id) && !Object.hasOwn(inputs.exemptions, clause.id)) {
      out.push({ code: 'CLAUSE_UNCOVERED', file: '', message: `[${clause.id}] (${clause.keyword}) has no case` });
    }
  }
  for (const [id, reason] of Object.entries(inputs.exemptions)) {
    const clause = inputs.clauses.get(id);
    if (!clause) out.push({ code: 'EXEMPTION_INVALID', file: '', message: `exempt clause ${id} is not in spec.md` });
    else if (clause.severity !== 'required')
      out.push({
        code: 'EXEMPTION_INVALID',
        file: '',
        message: `exempt clause ${id} is ${clause.keyword}; only MUST clauses need exemptions`,
      });
    else if (covered.has(id))
      out.push({ code: 'EXEMPTION_INVALID', file: '', message: `exempt clause ${id} has a case; remove the exemption` });
    if (reason.trim().length < 20) out.push({ code: 'EXEMPTION_INVALID', file: '', message: `exemption of ${id} needs a real reason` });
  }
  for (const code of inputs.provokableCodes) {
    if (!expected.has(code)) out.push({ code: 'CODE_UNEXPECTED', file: '', message: `no case expects ${code}` });
  }
  return out;
}
