// Finds and loads every case under conformance/cases/. A file that does not
// load, or whose metadata breaks a lint rule, still appears in the run, as
// an `error` naming the problem: a broken case never silently disappears
// from a certification.
import { clauses } from '../../contract/clauses.ts';
import { isConformanceCase, type ConformanceCase } from '../harness/define-case.ts';
import { CASES_ROOT, findCaseFiles, readCaseFile } from '../lint/case-files.ts';
import { idOfPath, lintCaseFile, type CaseFile, type Diagnostic } from '../lint/rules.ts';

export interface LoadedCase {
  /** The id the path implies; equals case.id when the metadata is sound. */
  id: string;
  file: CaseFile;
  case: ConformanceCase | null;
  problems: Diagnostic[];
}

export async function loadCases(root: string = CASES_ROOT): Promise<LoadedCase[]> {
  const files = await Promise.all(findCaseFiles(root).map((p) => readCaseFile(p, root)));
  const spec = clauses();
  return files.map((file) => {
    const problems = lintCaseFile(file, spec);
    const c = isConformanceCase(file.exported) ? file.exported : null;
    return { id: problems.length === 0 && c ? c.id : idOfPath(file.relative), file, case: c, problems };
  });
}
