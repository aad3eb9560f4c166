// Finds and loads every case under conformance/cases/. A file that does not
// load, or whose metadata breaks a lint rule, still appears in the run, as
// an `error` naming the problem: a broken case never silently disappears
// from a certification.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { clauses } from '../../contract/clauses.ts';
import { isConformanceCase, type ConformanceCase } from '../harness/define-case.ts';
import { idOfPath, lintCaseFile, type CaseFile, type Diagnostic } from '../lint/rules.ts';

export const CASES_ROOT = fileURLToPath(new URL('../cases/', import.meta.url));

export interface LoadedCase {
  /** The id the path implies; equals case.id when the metadata is sound. */
  id: string;
  file: CaseFile;
  case: ConformanceCase | null;
  problems: Diagnostic[];
}

export function findCaseFiles(root: string = CASES_ROOT): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.case.ts')) out.push(path);
    }
  };
  walk(root);
  return out.sort();
}

export async function readCaseFile(path: string, root: string = CASES_ROOT): Promise<CaseFile> {
  const rel = relative(root, path).split(sep).join('/');
  const source = readFileSync(path, 'utf8');
  try {
    const mod = (await import(pathToFileURL(path).href)) as { default?: unknown };
    return { relative: rel, source, exported: mod.default };
  } catch (err) {
    return { relative: rel, source, exported: undefined, loadError: `does not load: ${(err as Error).message.split('\n')[0]}` };
  }
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
