#!/usr/bin/env node
// Builds the package's compiled tree, dist/ (`npm run build`; npm runs it on
// `npm pack` and `npm publish` through prepack, and in a clone's `npm ci`
// through prepare). dist/ mirrors the repository's runtime folders: each
// module's JavaScript, and beside it the files the code reads relative to
// import.meta.url (the contract's openapi.yaml and spec.md, the JSON schemas,
// the SQL, the scale contract, the k6 scripts, the case sources the runner
// lints), the guides under docs/, the entry point, openapi.yaml parsed once
// into contract/openapi.json (openapi-json.js), and a package.json naming
// the version and the commit it was built from. Tests, fixtures, benchmarks
// and generated runs stay out.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeParsedOpenApi } from './openapi-json.js';
import { repositoryFiles } from './test-runner/compiled-tree.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');

/** The folders the program runs from (scripts/ is the developers'). */
const RUNTIME = ['contract', 'client', 'reference', 'directory', 'conformance', 'properties', 'load', 'certify', 'reports', 'cli', 'bin'];
/**
 * Never shipped, wherever they sit: tests and their fixtures, the reference's
 * deliberate defects (development only), benchmarks, examples, generated runs.
 * package.json's "files" leaves test/ and reference/defects/ out again: tsc
 * still emits an excluded module that a shipped one imports, and such an
 * import must fail the packed-package tests, not ship a defect.
 */
const LEFT_OUT = [/(^|\/)test\//, /^reference\/defects\//, /^load\/bench\//, /^load\/k6-operator\//, /^reports\/runs\//];

/** Whether a repository file is read at run time from beside the compiled code. */
function shipsAsItIs(/** @type {string} */ file) {
  if (!RUNTIME.includes(file.split('/')[0] ?? '') || LEFT_OUT.some((re) => re.test(file)))
    return file.startsWith('docs/') && file.endsWith('.md');
  if (file.endsWith('.d.ts') || file.endsWith('tsconfig.json')) return false;
  // The runner lints each case's source before it runs the case's JavaScript.
  if (file.endsWith('.case.ts')) return true;
  return /\.(js|json|yaml|sql)$/.test(file) || file === 'contract/spec.md';
}

function commitOf() {
  const git = (/** @type {string[]} */ args) => {
    try {
      return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return null;
    }
  };
  const commit = git(['rev-parse', 'HEAD']);
  const status = commit === null ? null : git(['status', '--porcelain', '--untracked-files=no']);
  return { commit: commit ?? 'unknown', dirty: status === null ? null : status !== '' };
}

function build() {
  rmSync(DIST, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const compiled = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.dist.json')], { cwd: ROOT, encoding: 'utf8' });
  if (compiled.status !== 0) throw new Error(`compiling dist/ failed (tsc -p tsconfig.dist.json):\n${compiled.stdout}${compiled.stderr}`);
  const files = repositoryFiles(ROOT)
    .map((f) => f.split('\\').join('/'))
    .filter(shipsAsItIs);
  for (const file of files) {
    mkdirSync(dirname(join(DIST, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(DIST, file));
  }
  writeParsedOpenApi(DIST);
  const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  writeFileSync(join(DIST, 'package.json'), `${JSON.stringify({ name, version, type: 'module', ...commitOf() }, null, 2)}\n`);
  return files.length;
}

// Packing runs prepack and then prepare: the tree prepack built is the one packed.
const packing = process.env['npm_lifecycle_event'] === 'prepare' && ['pack', 'publish'].includes(process.env['npm_command'] ?? '');
if (process.argv[1] === fileURLToPath(import.meta.url) && !packing) {
  const started = Date.now();
  const copied = build();
  console.log(`built dist/ (${copied} files beside the JavaScript) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
