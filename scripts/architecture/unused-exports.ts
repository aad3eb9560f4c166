// Exports no other file uses. A module's export is used when a file that
// imports the module names it: a named import or re-export, a default
// import, a namespace import's member, or (for a dynamic import, whose uses
// are harder to pin down) any mention of the name in the importing file.
// `export *` uses every export. What a tool loads by path is exempt: the
// default export of a conformance case and the k6 scripts' lifecycle API.
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { listSourceFiles } from './import-graph.ts';

/** Files whose exports a tool reads by convention, not by import. */
const LOADED_BY_PATH: ReadonlyArray<{ file: RegExp; names: RegExp }> = [
  { file: /\.case\.ts$/, names: /^default$/ },
  // The defect catalogue loads each deliberate defect by path (reference/defects/catalogue.ts).
  { file: /^reference\/defects\/[a-z]+\/[^/]+\.defect\.ts$/, names: /^default$/ },
  { file: /^load\/(scale\.js|flows\/|bench\/)|^load\/runner\/node-engine\/test\/fixtures\//, names: /.*/ },
  // node --test-reporter loads a reporter module by path and calls its default export.
  { file: /^scripts\/test-runner\/events-reporter\.js$/, names: /^default$/ },
];

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);
}

/** The names a module exports (not those it re-exports from elsewhere). */
function exportedNames(source: ts.SourceFile, options: { listedOnly?: boolean } = {}): string[] {
  const names: string[] = [];
  for (const s of source.statements) {
    if (ts.isExportDeclaration(s) && !s.moduleSpecifier && s.exportClause && ts.isNamedExports(s.exportClause)) {
      for (const e of s.exportClause.elements) names.push(e.name.text);
    } else if (options.listedOnly) continue;
    else if (ts.isExportAssignment(s)) names.push('default');
    else if (hasModifier(s, ts.SyntaxKind.ExportKeyword)) {
      if (hasModifier(s, ts.SyntaxKind.DefaultKeyword)) names.push('default');
      else if (ts.isVariableStatement(s)) {
        for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name.text);
      } else if ('name' in s && s.name && ts.isIdentifier(s.name as ts.Node)) names.push((s.name as ts.Identifier).text);
    }
  }
  return names;
}

interface Uses {
  /** Module path → the names taken from it, or 'all'. */
  readonly byModule: Map<string, Set<string> | 'all'>;
}

function take(uses: Uses, module: string, names: Iterable<string> | 'all'): void {
  const current = uses.byModule.get(module);
  if (current === 'all') return;
  if (names === 'all') return void uses.byModule.set(module, 'all');
  const set = current ?? new Set<string>();
  for (const n of names) set.add(n);
  uses.byModule.set(module, set);
}

/** What one file takes from the modules it imports, keyed by repository path. */
function usesOf(file: string, source: ts.SourceFile): Map<string, Set<string> | 'all'> {
  const uses: Uses = { byModule: new Map() };
  const resolve = (specifier: string) => posix.normalize(posix.join(posix.dirname(file), specifier));
  const identifiers = new Set<string>();
  const namespaces = new Map<string, string>();
  const dynamic: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) identifiers.add(node.text);
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text.startsWith('.')) {
      const module = resolve(node.moduleSpecifier.text);
      const clause = node.importClause;
      if (clause?.name) take(uses, module, ['default']);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings))
        take(
          uses,
          module,
          bindings.elements.map((e) => (e.propertyName ?? e.name).text),
        );
      if (bindings && ts.isNamespaceImport(bindings)) namespaces.set(bindings.name.text, module);
      if (!clause) take(uses, module, []);
    }
    if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      node.moduleSpecifier.text.startsWith('.')
    ) {
      const module = resolve(node.moduleSpecifier.text);
      const clause = node.exportClause;
      if (!clause || ts.isNamespaceExport(clause)) take(uses, module, 'all');
      else
        take(
          uses,
          module,
          clause.elements.map((e) => (e.propertyName ?? e.name).text),
        );
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteral(arg) && arg.text.startsWith('.')) dynamic.push(resolve(arg.text));
    }
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && namespaces.has(node.expression.text)) {
      take(uses, namespaces.get(node.expression.text)!, [node.name.text]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (const module of dynamic) take(uses, module, identifiers);
  return uses.byModule;
}

export function sourceOf(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, /\.[cm]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS);
}

/** How often each identifier occurs in a file, declarations included. */
function identifierCounts(source: ts.SourceFile): Map<string, number> {
  const counts = new Map<string, number>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) counts.set(node.text, (counts.get(node.text) ?? 0) + 1);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return counts;
}

/**
 * `file: name` for every export referenced nowhere: no other file uses it and
 * its own file names it only where it declares (and lists) it.
 */
export function unusedExports(files: ReadonlyMap<string, ts.SourceFile>): string[] {
  const used = new Map<string, Set<string> | 'all'>();
  for (const [file, source] of files) {
    for (const [module, names] of usesOf(file, source)) {
      if (module === file) continue;
      const current = used.get(module);
      if (current === 'all' || names === 'all') used.set(module, 'all');
      else used.set(module, new Set([...(current ?? []), ...names]));
    }
  }
  const problems: string[] = [];
  for (const [file, source] of files) {
    const taken = used.get(file);
    if (taken === 'all') continue;
    const counts = identifierCounts(source);
    const listed = new Set(exportedNames(source, { listedOnly: true }));
    for (const name of exportedNames(source)) {
      if (taken?.has(name)) continue;
      if ((counts.get(name) ?? 0) > (listed.has(name) ? 2 : 1)) continue;
      if (LOADED_BY_PATH.some((rule) => rule.file.test(file) && rule.names.test(name))) continue;
      problems.push(`${file}: ${name}`);
    }
  }
  return problems;
}

export function readSources(root: string): Map<string, ts.SourceFile> {
  return new Map(listSourceFiles(root).map((file) => [file, sourceOf(file, readFileSync(join(root, file), 'utf8'))]));
}
