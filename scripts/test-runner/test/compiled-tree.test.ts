// The compiled tree npm test runs its files from, built from a small
// repository of its own: the JavaScript sits beside a copy of the sources,
// so what a module finds relative to itself is still there; what is not
// source is left out; a file that does not compile stops the run with tsc's
// words; and a test file runs from the tree under its repository name.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { buildCompiledTree } from '../compiled-tree.js';
import { fileFailed, runFile } from '../file-run.js';
import { FROM_SOURCES, ROOT, placeOf } from '../suite.js';

const BUILD_CONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: [],
    allowImportingTsExtensions: true,
    rewriteRelativeImportExtensions: true,
    noCheck: true,
    rootDir: '.',
    outDir: '.build/tree',
  },
  include: ['src'],
};

async function repository(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'fleetproof-tree-'));
  const all = { 'package.json': '{ "type": "module" }', 'tsconfig.build.json': JSON.stringify(BUILD_CONFIG), ...files };
  for (const [path, text] of Object.entries(all)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

const node = (args: string[], cwd: string) =>
  new Promise<string>((resolve, reject) =>
    execFile(process.execPath, args, { cwd }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
    ),
  );

test('each module runs as JavaScript beside its source, finding its assets where they are in the repository', async (t) => {
  const root = await repository({
    'src/main.ts': `import { word } from './lib/word.ts';\nimport { readFileSync } from 'node:fs';\nconsole.log(word, readFileSync(new URL('./asset.txt', import.meta.url), 'utf8'));`,
    'src/lib/word.ts': `export const word: string = 'compiled';`,
    'src/asset.txt': 'beside',
    'src/plain.js': `export const plain = 1;`,
    'node_modules/dep/index.js': '',
    'reports/runs/old/result.json': '{}',
    '.git/HEAD': '',
    '.build/tree/stale.js': '',
    // A tree left by a run that was killed (no process has pid 0x7ffffffe): removed.
    '.build/run-2147483646/left.js': '',
  });
  t.after(() => rm(root, { recursive: true, force: true }));
  const tree = buildCompiledTree(root);
  assert.equal(tree, join(root, '.build', `run-${process.pid}`), 'a tree of its own per run');
  assert.equal((await node([join(tree, 'src', 'main.js')], tree)).trim(), 'compiled beside');
  for (const kept of ['src/main.ts', 'src/lib/word.ts', 'src/plain.js', 'package.json'])
    assert.ok(existsSync(join(tree, kept)), `${kept} is copied`);
  for (const left of ['node_modules', 'reports/runs', '.git', '.build', 'stale.js'])
    assert.ok(!existsSync(join(tree, left)), `${left} is not in the tree`);
  assert.deepEqual(readdirSync(join(root, '.build')), [`run-${process.pid}`], 'trees of runs that are gone are removed');
});

test('a source that does not compile stops the build with what tsc said', async (t) => {
  const root = await repository({ 'src/broken.ts': `export const x = ;` });
  t.after(() => rm(root, { recursive: true, force: true }));
  assert.throws(() => buildCompiledTree(root), /compiling the test tree failed[\s\S]*src\/broken\.ts/);
});

test('a test file runs from the tree as JavaScript and is reported under its repository name', async (t) => {
  const root = await repository({
    'src/x.test.ts': `import { test } from 'node:test';\ntest('compiled', () => { if (!import.meta.url.endsWith('/src/x.test.js')) throw new Error(import.meta.url); });`,
  });
  t.after(() => rm(root, { recursive: true, force: true }));
  const tree = buildCompiledTree(root);
  const r = await runFile({
    file: 'src/x.test.ts',
    runs: 'src/x.test.js',
    root: tree,
    env: { ...process.env },
    testTimeoutMs: 60_000,
    fileTimeoutMs: 120_000,
    onChild: () => () => {},
  });
  assert.equal(fileFailed(r), false, r.output);
  assert.equal(r.file, 'src/x.test.ts');
  assert.deepEqual(
    r.tests.map((x) => [x.name, x.ok]),
    [['compiled', true]],
  );
});

test('files that read the repository itself run from it; every other file runs from the tree', () => {
  for (const file of FROM_SOURCES) {
    assert.ok(existsSync(join(ROOT, file)), `${file} exists`);
    assert.deepEqual(placeOf(file, '/tree'), { root: ROOT });
  }
  assert.deepEqual(placeOf('cli/test/config.test.ts', '/tree'), { root: '/tree', runs: 'cli/test/config.test.js' });
  assert.deepEqual(placeOf('cli/test/config.test.ts', undefined), { root: ROOT }, 'without a tree, from the repository');
});
