// Modules a part of the repository must not import, and why: each rule
// holds a design decision that one import would quietly undo. Imports are
// read as the TypeScript scanner sees them (static, dynamic and require), so
// a module named in a comment or a string is not an import.
import ts from 'typescript';

export interface ForbiddenModule {
  /** Files whose repository path starts with this. */
  readonly under: string;
  /** The module, with or without its `node:` prefix. */
  readonly module: string;
  readonly why: string;
}

export const FORBIDDEN_MODULES: readonly ForbiddenModule[] = [
  {
    under: 'load/runner/',
    module: 'worker_threads',
    why: 'the Node runner runs every VU in its own thread, on async functions (load/runner/node-engine/virtual-users.ts)',
  },
];

/** Every module a source text imports, in order of appearance. */
function moduleSpecifiers(sourceText: string): string[] {
  return ts.preProcessFile(sourceText, true, true).importedFiles.map((file) => file.fileName);
}

/** Each import of a forbidden module, by file and specifier, with the reason. */
export function forbiddenImports(sources: ReadonlyMap<string, string>, rules: readonly ForbiddenModule[] = FORBIDDEN_MODULES): string[] {
  const problems: string[] = [];
  for (const [file, text] of sources)
    for (const rule of rules) {
      if (!file.startsWith(rule.under)) continue;
      for (const specifier of moduleSpecifiers(text))
        if (specifier.replace(/^node:/, '') === rule.module) problems.push(`${file} imports '${specifier}': ${rule.why}`);
    }
  return problems;
}
