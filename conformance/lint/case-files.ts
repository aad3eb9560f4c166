// The case files under conformance/cases/ and how one is read: the source
// text and what it exports, or why it does not load. The lint and the runner
// both start from here.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CaseFile } from './rules.ts';

export const CASES_ROOT = fileURLToPath(new URL('../cases/', import.meta.url));
/**
 * Where a case's module is imported from. Node 20 imports no TypeScript by
 * itself: in the repository tsx loads the .ts; in a compiled tree (this
 * module is then JavaScript too) the case's JavaScript sits beside it.
 */
const runnable = import.meta.url.endsWith('.js') ? (path: string) => path.replace(/\.ts$/, '.js') : (path: string) => path;

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
    const mod = (await import(pathToFileURL(runnable(path)).href)) as { default?: unknown };
    return { relative: rel, source, exported: mod.default };
  } catch (err) {
    return { relative: rel, source, exported: undefined, loadError: `does not load: ${(err as Error).message.split('\n')[0]}` };
  }
}
