#!/usr/bin/env node
// Finds every *.test.ts file (Node 20's --test cannot glob) and runs them with
// node:test under tsx. Arguments narrow the run to files whose path contains
// any of them: `npm test -- reference/store properties`.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const skipDirs = new Set(['node_modules', '.git', 'runs']);

/**
 * @param {string} dir
 * @param {string[]} out
 * @returns {string[]}
 */
function findTests(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!skipDirs.has(entry.name) && !entry.name.startsWith('.')) findTests(join(dir, entry.name), out);
    } else if (entry.name.endsWith('.test.ts')) {
      out.push(relative(root, join(dir, entry.name)));
    }
  }
  return out;
}

const filters = process.argv.slice(2);
const files = findTests(root)
  .filter((f) => filters.length === 0 || filters.some((p) => f.includes(p)))
  .sort();
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}

const { withTestDatabaseServer } = await import('./test-postgres.js');
const code = await withTestDatabaseServer(
  () =>
    new Promise((resolve) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', '--test-timeout=300000', ...files],
        { cwd: root, stdio: 'inherit', env: { ...process.env, FLEETPROOF_TEST: '1' } },
      );
      child.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0)));
    }),
  files,
);
process.exit(code);
