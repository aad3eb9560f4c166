// npm test runs its files as JavaScript, compiled once per run. Loading the
// TypeScript through tsx costs each process about 1.2 CPU-seconds more than
// loading the same graph as JavaScript (Node 20 runs every loader hook on a
// thread of its own); over the suite's few hundred processes (test files,
// CLI starts, token commands) that was a sixth of a round's CPU on two cores.
//
// The tree is a copy of the repository with each .ts file's JavaScript beside
// it, so whatever a module finds relative to import.meta.url (openapi.yaml,
// the k6 scripts, the case files' sources) is where it is in the repository,
// and openapi.yaml parsed once beside it, as dist/ has it (openapi-json.js).
// Each run builds its own (.build/run-<pid>/) and removes it when it exits,
// so two runs in one checkout never share one; a tree whose run was killed
// is removed by the next run.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { writeParsedOpenApi } from '../openapi-json.js';

/** Never copied: installed packages (found from the tree by walking up), history, trees, run output, local state. */
const NOT_COPIED = ['node_modules', '.git', '.build', 'dist', '.fleetproof', 'reports/runs'];
const notCopied = (/** @type {string} */ relativePath) => {
  const path = relativePath.split(sep).join('/');
  return NOT_COPIED.some((p) => path === p || path.startsWith(`${p}/`));
};

/**
 * Copies the repository's files to `<root>/.build/run-<pid>/` and compiles
 * every .ts file into it (tsconfig.build.json). Throws with tsc's output
 * when a source does not compile.
 * @param {string} root
 * @returns {string} the tree's root
 */
export function buildCompiledTree(root) {
  const builds = join(root, '.build');
  removeAbandonedTrees(builds);
  const tree = join(builds, `run-${process.pid}`);
  rmSync(tree, { recursive: true, force: true });
  process.on('exit', () => rmSync(tree, { recursive: true, force: true }));
  for (const file of repositoryFiles(root)) {
    mkdirSync(dirname(join(tree, file)), { recursive: true });
    copyFileSync(join(root, file), join(tree, file));
  }
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', tree], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`compiling the test tree failed (tsc -p tsconfig.build.json):\n${r.stdout}${r.stderr}`);
  writeParsedOpenApi(tree);
  return tree;
}

/** Trees of runs whose process is gone (killed before it could remove its own). */
function removeAbandonedTrees(/** @type {string} */ builds) {
  if (!existsSync(builds)) return;
  for (const name of readdirSync(builds)) {
    const pid = /^run-([0-9]+)$/.exec(name)?.[1];
    if (pid === undefined || !alive(Number(pid))) rmSync(join(builds, name), { recursive: true, force: true });
  }
}

function alive(/** @type {number} */ pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return /** @type {NodeJS.ErrnoException} */ (err).code === 'EPERM';
  }
}

/**
 * The repository's files, relative to `root`: in a git checkout what git
 * shows (tracked, or untracked and not ignored: no keys, no run output);
 * elsewhere every regular file outside NOT_COPIED, skipping what cannot be read.
 * @param {string} root
 * @returns {string[]}
 */
export function repositoryFiles(root) {
  let listed = null;
  try {
    listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch {
    // Not a git checkout (an unpacked archive), or no git: walk the directory instead.
  }
  const files = listed === null ? walk(root, root) : listed.split('\0').filter(Boolean);
  // A tracked file deleted from the working tree is listed but not there; the build has what the checkout has.
  return files.filter((file) => !notCopied(file) && regularFile(join(root, file)));
}

function regularFile(/** @type {string} */ path) {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

/** @param {string} root @param {string} dir @returns {string[]} */
function walk(root, dir) {
  /** @type {import('node:fs').Dirent[]} */
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const path = join(dir, e.name);
    if (notCopied(relative(root, path))) return [];
    if (e.isDirectory()) return walk(root, path);
    return e.isFile() ? [relative(root, path)] : [];
  });
}
