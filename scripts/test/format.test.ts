// The tree is formatted as prettier formats it (.prettierrc.json,
// .prettierignore), so a diff shows what changed rather than how it was
// typed. `npx prettier --write .` mends what this test names.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const prettier = createRequire(import.meta.url).resolve('prettier/bin/prettier.cjs');

test('every file prettier formats is formatted (npx prettier --check .)', () => {
  const result = spawnSync(process.execPath, [prettier, '--check', '--log-level', 'warn', '.'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 240_000,
  });
  assert.equal(result.error, undefined, `prettier did not run: ${result.error?.message}`);
  assert.equal(result.status, 0, `not formatted (run npx prettier --write .):\n${result.stdout}${result.stderr}`);
});
