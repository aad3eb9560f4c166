// Reads the relative imports of every TypeScript and JavaScript file in the
// repository, static and dynamic, as the TypeScript scanner sees them (so an
// import named in a comment or a string is not an edge).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

/** One import: the file that holds it, the file it names, and how it was written. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
  readonly specifier: string;
}

/** Every source file (repository-relative, `/`-separated) and its relative imports. */
export type ImportGraph = ReadonlyMap<string, readonly ImportEdge[]>;

const SKIPPED_DIRS = new Set(['node_modules', '.git', 'runs']);
/** The package's compiled tree (`npm run build`, and `npm ci` through prepare): output, not source. */
const BUILT = 'dist';
const SOURCE = /\.(?:ts|js|mjs|cjs)$/;

export function listSourceFiles(root: string, dir = root, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      const skipped = SKIPPED_DIRS.has(entry.name) || entry.name.startsWith('.') || (dir === root && entry.name === BUILT);
      if (!skipped) listSourceFiles(root, join(dir, entry.name), out);
    } else if (SOURCE.test(entry.name)) {
      out.push(relative(root, join(dir, entry.name)).split(sep).join('/'));
    }
  }
  return out.sort();
}

/** The relative specifiers a source text imports, in order of appearance. */
export function relativeSpecifiers(sourceText: string): string[] {
  return ts
    .preProcessFile(sourceText, true, true)
    .importedFiles.map((file) => file.fileName)
    .filter((name) => name.startsWith('./') || name.startsWith('../'));
}

export function edgesOf(file: string, sourceText: string): ImportEdge[] {
  return relativeSpecifiers(sourceText).map((specifier) => ({
    from: file,
    to: posix.normalize(posix.join(posix.dirname(file), specifier)),
    specifier,
  }));
}

export function readImportGraph(root: string): ImportGraph {
  const graph = new Map<string, ImportEdge[]>();
  for (const file of listSourceFiles(root)) graph.set(file, edgesOf(file, readFileSync(join(root, file), 'utf8')));
  return graph;
}

/** The folder a repository path sits in ('.' for a file at the top). */
export function folderOf(file: string): string {
  const dir = dirname(file);
  return dir === '' ? '.' : dir;
}
