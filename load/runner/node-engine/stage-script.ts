// The script as the Node runner imports it. k6's built-in module names
// ('k6', 'k6/http', …) mean nothing to Node, and a resolve hook mapping them
// would hold for the whole process, whatever else it loads. Instead, once
// per run, the script and every local module it imports are copied into a
// temporary directory with k6's names replaced by the files of the Node
// implementations (vu/k6-*.js). The copies keep their absolute layout under
// that directory, so relative imports resolve among them.
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FleetproofError } from '../../../client/errors.ts';

const SHIM_DIR = fileURLToPath(new URL('./vu/', import.meta.url));

/** k6's built-in modules that the Node runner provides. */
export const K6_MODULES: Readonly<Record<string, string>> = {
  k6: 'k6.js',
  'k6/http': 'k6-http.js',
  'k6/metrics': 'k6-metrics.js',
  'k6/execution': 'k6-execution.js',
  'k6/data': 'k6-data.js',
  'k6/crypto': 'k6-crypto.js',
  'k6/timers': 'k6-timers.js',
};

export class ScriptStagingError extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_SCRIPT', message, options);
  }
}

// Static imports and re-exports (`import x from '…'`, `import '…'`,
// `export … from '…'`) and dynamic imports with a literal specifier.
const SPECIFIER =
  /(\bimport\s*(?:[\w$*{}\s,]+?\s*from\s*)?|\bexport\s*(?:\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})\s*from\s*|\bimport\s*\(\s*)(['"])([^'"\n]+)\2/g;

export interface StagedScript {
  /** The copy of the script to import. */
  path: string;
  remove(): Promise<void>;
}

/**
 * Where comments and string literals start and end, so that `import(…)` in
 * a JSDoc type or an import statement quoted in a string is left alone.
 * Regular expression literals are not recognised; load scripts do not quote
 * import statements in them.
 */
function inertRanges(source: string): [number, number][] {
  const ranges: [number, number][] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const next = source[i + 1];
    let end = -1;
    if (c === '/' && next === '/') end = source.indexOf('\n', i);
    else if (c === '/' && next === '*') end = source.indexOf('*/', i + 2) + 1;
    else if (c === "'" || c === '"' || c === '`') {
      end = i + 1;
      while (end < source.length && source[end] !== c) end += source[end] === '\\' ? 2 : 1;
    } else continue;
    if (end <= 0) end = source.length;
    ranges.push([i, end]);
    i = end;
  }
  return ranges;
}

/**
 * @param stagedUrl where a local module's copy is, for an absolute specifier:
 * it would name the original, whose k6 imports Node cannot resolve
 */
function rewrite(source: string, file: string, local: Set<string>, stagedUrl: (path: string) => string): string {
  const inert = inertRanges(source);
  return source.replace(SPECIFIER, (whole, lead: string, quote: string, specifier: string, offset: number) => {
    if (inert.some(([from, to]) => offset >= from && offset <= to)) return whole;
    const shim = K6_MODULES[specifier];
    if (shim) return `${lead}${quote}${pathToFileURL(join(SHIM_DIR, shim)).href}${quote}`;
    if (specifier.startsWith('k6/'))
      throw new ScriptStagingError(`${file}: the Node runner does not provide ${specifier}; run this script with k6`);
    if (/^https?:\/\//.test(specifier))
      throw new ScriptStagingError(`${file}: remote module ${specifier}: the Node runner loads local files only`);
    if (specifier.startsWith('.')) local.add(resolve(dirname(file), specifier));
    else if (specifier.startsWith('/') || specifier.startsWith('file:')) {
      const path = specifier.startsWith('file:') ? fileURLToPath(specifier) : specifier;
      local.add(path);
      return `${lead}${quote}${stagedUrl(path)}${quote}`;
    }
    return whole;
  });
}

export async function stageScript(scriptPath: string): Promise<StagedScript> {
  const root = await mkdtemp(join(tmpdir(), 'fleetproof-script-'));
  const staged = (file: string) => join(root, file);
  try {
    const pending = [resolve(scriptPath)];
    const done = new Set<string>();
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (done.has(file)) continue;
      done.add(file);
      const local = new Set<string>();
      const source = rewrite(await readFile(file, 'utf8'), file, local, (path) => pathToFileURL(staged(path)).href);
      await mkdir(dirname(staged(file)), { recursive: true });
      await writeFile(staged(file), source);
      pending.push(...local);
    }
    // k6 scripts are ES modules. Said so for the whole copy, every loader
    // takes them as such: plain Node would detect it, but tsx's loader (the
    // runner's thread, when fleetproof runs from its TypeScript sources)
    // takes a .js file outside a "type": "module" package for CommonJS.
    await writeFile(join(root, 'package.json'), '{ "type": "module" }\n');
  } catch (err) {
    await rm(root, { recursive: true, force: true });
    throw err;
  }
  return { path: staged(resolve(scriptPath)), remove: () => rm(root, { recursive: true, force: true }) };
}
