// Finds the test files (Node 20's --test cannot glob), narrows them to the
// filters, and runs them four at a time, each in its own process, printing a
// line per finished file and the failures in full. Files run from the
// compiled tree (compiled-tree.js) unless they read the repository itself.
// Shared by npm test, test:repeat and test:busy.
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCompiledTree } from './compiled-tree.js';
import { fileFailed, runFile } from './file-run.js';
import { clock, failureText, progressLine } from './report.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SKIP_DIRS = new Set(['node_modules', '.git', 'runs']);

/** @param {string} dir @param {string[]} out @returns {string[]} */
function findTests(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) findTests(join(dir, entry.name), out);
    } else if (entry.name.endsWith('.test.ts')) {
      out.push(relative(ROOT, join(dir, entry.name)));
    }
  }
  return out;
}

/**
 * The files that run longest (each one to four minutes in a whole run on a
 * 2-core machine), longest first. They start before all others: in path
 * order the variants files came last, and the run ended on one of them
 * alone, one core busy; the PostgreSQL store's suite, the report rendering,
 * the type check and the format check ended it the same way. A file missing
 * from this list only starts in path order.
 */
export const LONGEST_FIRST = [
  'certify/test/certify.test.ts',
  'certify/test/without-key.test.ts',
  // Packs the package, certifies from it and serves PostgreSQL from it: started after the two certify files, not beside them.
  'bin/test/installed-package.test.ts',
  'reference/variant/test/variants.test.ts',
  'reference/variant/test/variants-postgres.test.ts',
  'certify/stages/test/faults-postgres.test.ts',
  'reference/store/postgres/test/postgres-store.test.ts',
  'reports/test/rendering.test.ts',
  'certify/stages/test/faults-stage.test.ts',
  'properties/test/legal-limits.property.test.ts',
  'cli/test/config.test.ts',
  'conformance/test/self-check-postgres.test.ts',
  'conformance/test/legal-limits.test.ts',
  'conformance/test/without-key.test.ts',
  'scripts/test/typecheck.test.ts',
  'scripts/test/format.test.ts',
  'load/test/smoke-memory.test.ts',
  'load/test/smoke-legal-limits.test.ts',
  'reference/store/postgres/test/postgres-scale-plans.test.ts',
];

/** Test files whose path contains any filter (all of them without filters): the longest first, then in path order. */
export function selectFiles(/** @type {string[]} */ filters) {
  const rank = (/** @type {string} */ f) => {
    const i = LONGEST_FIRST.indexOf(f.split(sep).join('/'));
    return i === -1 ? LONGEST_FIRST.length : i;
  };
  return findTests(ROOT)
    .filter((f) => filters.length === 0 || filters.some((p) => f.includes(p)))
    .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Files that test the repository as it is rather than the code it holds:
 * they type-check the sources or walk their imports (in the compiled tree
 * they would also meet the emitted JavaScript), read the docs (which the
 * compiled tree does not hold), start the package's entry
 * point as a user does, through tsx, or pack the package from it. They run
 * from the repository.
 */
export const FROM_SOURCES = [
  'bin/test/entry-point.test.ts',
  'bin/test/installed-package.test.ts',
  'scripts/test/architecture.test.ts',
  'scripts/test/doc-links.test.ts',
  'scripts/test/format.test.ts',
  'scripts/test/typecheck.test.ts',
  'scripts/test/unused-exports.test.ts',
];
const fromSources = (/** @type {string} */ file) =>
  process.env['FLEETPROOF_TEST_FROM_SOURCES'] === '1' || FROM_SOURCES.includes(file.split(sep).join('/'));

/**
 * Where a test file runs: from the compiled tree, as JavaScript, when there
 * is one and the file is not one of FROM_SOURCES; else from the repository.
 * @param {string} file  its path in the repository
 * @param {string | undefined} tree  the compiled tree's root
 * @returns {{ root: string, runs?: string }}
 */
export function placeOf(file, tree) {
  return tree === undefined || fromSources(file) ? { root: ROOT } : { root: tree, runs: file.replace(/\.ts$/, '.js') };
}

/**
 * Builds the compiled tree when any of `files` runs from it;
 * FLEETPROOF_TEST_FROM_SOURCES=1 runs every file from the repository,
 * through tsx, and builds nothing.
 * @returns {string | undefined} the tree's root
 */
export function compiledTreeFor(/** @type {string[]} */ files, /** @type {(line: string) => void} */ print = (line) => console.log(line)) {
  if (files.every(fromSources)) return undefined;
  const started = Date.now();
  const tree = buildCompiledTree(ROOT);
  print(`compiled the sources into ${relative(ROOT, tree)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return tree;
}

const positive = (/** @type {string | undefined} */ text, /** @type {number} */ fallback) =>
  text && Number(text) > 0 ? Number(text) : fallback;

/** A test's own limit, node:test's --test-timeout. */
const TEST_TIMEOUT_MS = positive(process.env['FLEETPROOF_TEST_TIMEOUT_S'], 300) * 1000;
/** The last resort for a file that hangs outside any test's limit (a poller left running, a handle left open). */
const FILE_TIMEOUT_MS = positive(process.env['FLEETPROOF_TEST_FILE_TIMEOUT_S'], 600) * 1000;
/**
 * Files whose limits are this many times the others': they pack and install
 * the package before they certify from it, and a certification on
 * PostgreSQL, whole, takes longer than any other file's work; the certify
 * files run whole certifications, each allowed CERTIFY_MS (520 s) of its own,
 * which the file's limit must not cut short on a loaded machine; the variants
 * and legal-limits files run the whole conformance suite against several
 * registries in turn, the keep-alive race runs it through a front that
 * relays every byte, and the suite holds cases that must wait out token and
 * lease edges.
 */
const LONGER_LIMITS = {
  'certify/test/certify.test.ts': 2,
  'certify/test/without-key.test.ts': 2,
  'reference/variant/test/variants.test.ts': 2,
  'conformance/test/legal-limits.test.ts': 2,
  'conformance/test/keep-alive-race.test.ts': 2,
  'bin/test/installed-package.test.ts': 4,
};
const limitsOf = (/** @type {string} */ file) => {
  const times = /** @type {Record<string, number>} */ (LONGER_LIMITS)[file.split(sep).join('/')] ?? 1;
  return { testTimeoutMs: TEST_TIMEOUT_MS * times, fileTimeoutMs: FILE_TIMEOUT_MS * times };
};
// Four at a time: the files wait on servers, timers and child processes more
// than they compute (two at a time kept 1.2 of 2 cores busy on average, three
// left a quarter of them idle, mostly while the load smoke tests ran), and
// every file is written to pass on a busy machine.
const CONCURRENCY = positive(process.env['FLEETPROOF_TEST_CONCURRENCY'], 4);
/** After this long without a finished file, a line says what is still running. */
const HEARTBEAT_MS = positive(process.env['FLEETPROOF_TEST_HEARTBEAT_S'], 60) * 1000;

/** Every child process group still running, so Ctrl-C ends them too. */
const live = new Set(/** @type {Array<() => void>} */ ([]));
let interrupted = false;
/** Ends every running file and starts no more (Ctrl-C, SIGTERM). */
export function stopAllFiles() {
  interrupted = true;
  for (const stop of live) stop();
}
export const wasInterrupted = () => interrupted;

/**
 * @param {{ files: string[], tree?: string, env?: NodeJS.ProcessEnv, print?: (line: string) => void }} o
 * @returns {Promise<import('./file-run.js').FileResult[]>}
 */
export async function runSuite(o) {
  const print = o.print ?? ((line) => console.log(line));
  const env = { ...process.env, FLEETPROOF_TEST: '1', ...o.env };
  const started = Date.now();
  const queue = [...o.files];
  /** @type {import('./file-run.js').FileResult[]} */
  const results = [];
  let failed = 0;
  /** What each running file is doing, for the heartbeat. */
  const current = new Map(/** @type {Array<[string, () => string[]]>} */ ([]));
  let lastLine = Date.now();
  const heartbeat = setInterval(() => {
    if (Date.now() - lastLine < HEARTBEAT_MS) return;
    lastLine = Date.now();
    const doing = [...current].map(([file, tests]) => `${file}${tests().length ? ` (${tests().join(' › ')})` : ''}`);
    print(
      `… [${results.length}/${o.files.length}] still running: ${doing.join('; ')} · ${failed} failed so far · ${clock(Date.now() - started)} elapsed`,
    );
  }, 5_000).unref();
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined && !interrupted; file = queue.shift()) {
      const r = await runFile({
        file,
        ...placeOf(file, o.tree),
        env,
        ...limitsOf(file),
        onChild: (stop, runningTests) => {
          live.add(stop);
          current.set(file, runningTests);
          return () => {
            live.delete(stop);
            current.delete(file);
          };
        },
      });
      results.push(r);
      lastLine = Date.now();
      if (fileFailed(r)) failed++;
      print(progressLine(r, results.length, o.files.length, failed, Date.now() - started));
      if (fileFailed(r)) print(failureText(r));
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, o.files.length) }, worker));
  } finally {
    clearInterval(heartbeat);
  }
  return results.sort((a, b) => a.file.localeCompare(b.file));
}
