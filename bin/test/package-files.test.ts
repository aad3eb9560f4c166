// package.json's "files" is the last word on what the tarball holds, whatever
// the build leaves in dist/: npm pack (dry run, scripts off) over a dist/ that
// holds test folders and the reference's deliberate defects beside the
// modules that must ship.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCommand } from './commands.ts';

const MANIFEST = fileURLToPath(new URL('../../package.json', import.meta.url));

const LEFT_OUT = [
  'dist/test/support.js',
  'dist/cli/test/examples.test.js',
  'dist/reference/store/postgres/test/fixtures/plan.json',
  'dist/reference/defects/index.js',
  'dist/reference/defects/store/lost-update.js',
];
/** Names that resemble the left-out ones and must still ship. */
const SHIPPED = [
  'dist/cli/main.js',
  'dist/load/latest/run.js',
  'dist/cli/testing-notes.js',
  'dist/reference/store/open-store.js',
  'dist/reference/defects-summary.js',
  'dist/conformance/cases/defects/case.js',
];

test('the tarball leaves out every test folder and reference/defects/, and keeps the rest of dist/', async () => {
  const work = await mkdtemp(join(tmpdir(), 'fleetproof-files-'));
  try {
    copyFileSync(MANIFEST, join(work, 'package.json'));
    for (const file of [...LEFT_OUT, ...SHIPPED]) {
      mkdirSync(dirname(join(work, file)), { recursive: true });
      writeFileSync(join(work, file), 'export {};\n');
    }
    const r = await runCommand('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: work, timeoutMs: 120_000 });
    assert.equal(r.code, 0, r.output);
    const [packed] = JSON.parse(r.output.slice(r.output.indexOf('['))) as [{ files: { path: string }[] }];
    const files = packed.files.map((f) => f.path);
    assert.deepEqual(
      LEFT_OUT.filter((f) => files.includes(f)),
      [],
    );
    assert.deepEqual(
      SHIPPED.filter((f) => !files.includes(f)),
      [],
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});
