// npm test runs its files as JavaScript, compiled once per run. Loading the
// TypeScript through tsx costs each process about 1.2 CPU-seconds more than
// loading the same graph as JavaScript (Node 20 runs every loader hook on a
// thread of its own); over the suite's few hundred processes (test files,
// CLI starts, token commands) that was a sixth of a round's CPU on two cores.
//
// The tree is a copy of the repository with each .ts file's JavaScript beside
// it, so whatever a module finds relative to import.meta.url (openapi.yaml,
// the k6 scripts, the case files' sources) is where it is in the repository.
// A fresh copy every run: the tree never lags behind the sources.
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

/** Not copied: installed packages (found from the tree by walking up), history, earlier trees, run output. */
const NOT_COPIED = new Set(['node_modules', '.git', '.build', '.fleetproof', join('reports', 'runs')]);

/**
 * Copies `root` to `<root>/.build/tree/` and compiles every .ts file there
 * (tsconfig.build.json). Throws with tsc's output when it cannot emit.
 * @param {string} root
 * @returns {string} the tree's root
 */
export function buildCompiledTree(root) {
  const tree = join(root, '.build', 'tree');
  rmSync(tree, { recursive: true, force: true });
  const copied = (/** @type {string} */ from) => !NOT_COPIED.has(relative(root, from));
  // Entry by entry: cp refuses to copy a directory into one beneath itself.
  for (const name of readdirSync(root)) if (copied(join(root, name))) cpSync(join(root, name), join(tree, name), { recursive: true, filter: copied });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`compiling the test tree failed (tsc -p tsconfig.build.json):\n${r.stdout}${r.stderr}`);
  return tree;
}
