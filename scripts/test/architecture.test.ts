// The layers hold mechanically: the repository's import graph (static and
// dynamic relative imports of every .ts and .js file) breaks no layer rule
// and has no cycle between files or folders. The checker itself is tested on
// small graphs, so a green run means the rules were checked, not skipped.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FORBIDDEN_MODULES, forbiddenImports } from '../architecture/forbidden-modules.ts';
import { edgesOf, listSourceFiles, readImportGraph, relativeSpecifiers, type ImportGraph } from '../architecture/import-graph.ts';
import { developmentOnlyViolations, fileCycles, folderCycles, layerViolations, layoutViolations } from '../architecture/layers.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A graph from `file: source` pairs, read the way the repository's files are. */
function graphOf(files: Record<string, string>): ImportGraph {
  return new Map(Object.entries(files).map(([file, source]) => [file, edgesOf(file, source)]));
}

describe('the repository', () => {
  const graph = readImportGraph(root);

  it('is read whole, dynamic imports included', () => {
    assert.ok(graph.size > 500, `only ${graph.size} files read`);
    const bin = graph.get('bin/fleetproof.js') ?? [];
    assert.ok(
      bin.some((e) => e.to === 'cli/main.ts'),
      'bin/fleetproof.js loads cli/main.ts with a dynamic import',
    );
  });

  it('keeps every layer rule', () => {
    const problems = layerViolations(graph);
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  });

  it("keeps the deliberate defects off the product: only tests, scripts and the CLI's development path import them", () => {
    const problems = developmentOnlyViolations(graph);
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  });

  it('keeps its tests, and what only tests use, in test/ folders (CONTRIBUTING.md)', () => {
    const problems = layoutViolations(graph);
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  });

  it('has no cycle between files', () => {
    const problems = fileCycles(graph);
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  });

  it('has no cycle between folders', () => {
    const problems = folderCycles(graph);
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  });

  it('imports no forbidden module where a rule forbids it (no worker thread in the Node runner)', () => {
    const files = listSourceFiles(root).filter((file) => FORBIDDEN_MODULES.some((rule) => file.startsWith(rule.under)));
    assert.ok(files.length > 50, `only ${files.length} files under the rules' folders read`);
    const problems = forbiddenImports(new Map(files.map((file) => [file, readFileSync(join(root, file), 'utf8')])));
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  });
});

describe('the import-graph checker', () => {
  it('reads the sources, not the compiled package at the top (dist/), nor installed packages', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fleetproof-sources-'));
    try {
      for (const file of ['cli/main.ts', 'load/dist/chart.js', 'dist/cli/main.js', 'node_modules/dep/index.js']) {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        writeFileSync(join(dir, file), 'export {};\n');
      }
      assert.deepEqual(listSourceFiles(dir), ['cli/main.ts', 'load/dist/chart.js']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads static, type-only, re-exported and dynamic imports, but not comments or strings', () => {
    const source = [
      `// import x from './in-a-comment.ts';`,
      `import a from './a.ts';`,
      `import type { B } from '../b.ts';`,
      `export * from './c.js';`,
      `const d = await import('./d.ts');`,
      `const text = "import('./in-a-string.ts')";`,
      `import fs from 'node:fs';`,
    ].join('\n');
    assert.deepEqual(relativeSpecifiers(source), ['./a.ts', '../b.ts', './c.js', './d.ts']);
    assert.deepEqual(edgesOf('load/runner/x.ts', `import '../../reference/y.ts';`), [
      { from: 'load/runner/x.ts', to: 'reference/y.ts', specifier: '../../reference/y.ts' },
    ]);
  });

  it('names each import that breaks a layer, and lets tests and cli reach anywhere', () => {
    const graph = graphOf({
      'load/runner/audit.ts': `import { sha256Hex } from '../../reference/domain/digest.ts';\nimport { canonicalJson } from '../../contract/canonical-json.js';`,
      'contract/errors.ts': `export { x } from '../reports/x.ts';`,
      'load/test/smoke.test.ts': `import '../../reference/store/memory/memory-store.ts';`,
      'properties/test/support.ts': `import '../../reference/http/server.ts';`,
      'cli/serve.ts': `import '../reference/http/server.ts';`,
      'reports/x.ts': ``,
      'reference/domain/digest.ts': ``,
    });
    assert.deepEqual(layerViolations(graph), [
      `layer: load/runner/audit.ts imports '../../reference/domain/digest.ts' (reference/domain/digest.ts): load may import only load, contract, client`,
      `layer: contract/errors.ts imports '../reports/x.ts' (reports/x.ts): contract may import only contract`,
    ]);
  });

  it('names a forbidden import however it is written, only where its rule applies', () => {
    const sources = new Map(
      Object.entries({
        'load/runner/a.ts': `import { Worker } from 'node:worker_threads';`,
        'load/runner/node-engine/vu/b.js': `const { parentPort } = require('worker_threads');`,
        'load/runner/node-engine/test/c.test.ts': `const w = await import('node:worker_threads');`,
        'load/runner/quiet.ts': `// worker_threads, as a word in a comment\nconst s = "import('node:worker_threads')";`,
        'scripts/bench/d.ts': `import { Worker } from 'node:worker_threads';`,
      }),
    );
    assert.deepEqual(
      forbiddenImports(sources).map((p) => p.split(' ')[0]),
      ['load/runner/a.ts', 'load/runner/node-engine/vu/b.js', 'load/runner/node-engine/test/c.test.ts'],
    );
  });

  it('refuses a folder the layer table does not know', () => {
    assert.deepEqual(layerViolations(graphOf({ 'tools/x.ts': `import '../contract/errors.ts';` })), [
      'tools/x.ts: folder tools has no place in the layer table',
    ]);
  });

  it('holds the layers inside the reference: domain below store below http, what assembles a registry above', () => {
    const graph = graphOf({
      'reference/domain/rules.ts': `import '../store/memory/m.ts';`,
      'reference/store/memory/m.ts': `import '../../domain/rules.ts';\nimport '../../http/server.ts';`,
      'reference/http/server.ts': `import '../store/memory/m.ts';`,
      'reference/embedded.ts': `import './http/server.ts';\nimport './variant/v.ts';`,
      'reference/variant/v.ts': `import '../http/server.ts';`,
      'reference/odd/x.ts': ``,
    });
    assert.deepEqual(layerViolations(graph), [
      `layer: reference/domain/rules.ts imports '../store/memory/m.ts' (reference/store/memory/m.ts): reference/domain may import only reference/domain`,
      `layer: reference/store/memory/m.ts imports '../../http/server.ts' (reference/http/server.ts): reference/store may import only reference/store, reference/domain`,
      "reference/odd/x.ts: folder reference/odd has no place in reference's layer table",
    ]);
  });

  it('names a product file that imports a deliberate defect, but lets tests, scripts and the development path do so', () => {
    const graph = graphOf({
      'reference/embedded.ts': `import './defects/catalogue.ts';`,
      'cli/serve.ts': `const d = await import('../reference/defects/defective.ts');`,
      'cli/defect-flag.ts': `const c = await import('../reference/defects/catalogue.ts');`,
      'reference/defects/catalogue.ts': `import './defect.ts';`,
      'reference/defects/test/x.test.ts': `import '../catalogue.ts';`,
      'scripts/power.ts': `import '../reference/defects/catalogue.ts';`,
      'conformance/test/defects.test.ts': `import '../../reference/defects/catalogue.ts';`,
    });
    assert.deepEqual(developmentOnlyViolations(graph), [
      `development only: reference/embedded.ts imports './defects/catalogue.ts' (reference/defects/catalogue.ts): only cli/defect-flag.ts, tests, scripts may import reference/defects/`,
      `development only: cli/serve.ts imports '../reference/defects/defective.ts' (reference/defects/defective.ts): only cli/defect-flag.ts, tests, scripts may import reference/defects/`,
    ]);
  });

  it('names a test outside a test/ folder, test support outside one, and a product file importing a test', () => {
    const graph = graphOf({
      'load/runner/journal.test.ts': ``,
      'load/runner/test/journal.test.ts': `import './support.ts';`,
      'load/runner/test/support.ts': ``,
      'load/runner/journal.ts': `import './test/support.ts';`,
      'directory/testkit/fake.ts': ``,
      'directory/test/kit/fake.ts': ``,
      'scripts/bench/x.ts': `import '../../load/runner/test/support.ts';`,
    });
    assert.deepEqual(layoutViolations(graph), [
      'layout: load/runner/journal.test.ts is a test outside a test/ folder',
      `layout: load/runner/journal.ts imports './test/support.ts' (load/runner/test/support.ts): a product file imports test support`,
      'layout: directory/testkit/fake.ts sits in testkit/, test support outside a test/ folder',
    ]);
  });

  it('finds a cycle between files and shows every import on it', () => {
    const graph = graphOf({
      'h/contention.ts': `import type { C } from './context.ts';`,
      'h/context.ts': `import { build } from './fixtures.ts';`,
      'h/fixtures.ts': `const { r } = await import('./contention.ts');`,
      'h/alone.ts': `import './context.ts';`,
    });
    const [problem, ...rest] = fileCycles(graph);
    assert.deepEqual(rest, []);
    assert.match(problem!, /^file cycle: h\/contention\.ts -> h\/context\.ts -> h\/fixtures\.ts -> h\/contention\.ts/);
    assert.match(problem!, /h\/fixtures\.ts imports '\.\/contention\.ts'/);
    assert.deepEqual(fileCycles(graphOf({ 'a.ts': `import './a.ts';` })).length, 1, 'a file importing itself is a cycle');
  });

  it('finds cycles between sibling folders at any depth, but not between a folder and its own subfolder', () => {
    const graph = graphOf({
      'certify/run.ts': `import '../reports/write.ts';`,
      'reports/write.ts': `import '../certify/types.ts';`,
      'certify/types.ts': ``,
      'p/model/a.ts': `import '../targets/t.ts';`,
      'p/targets/t.ts': `import '../model/deep/u.ts';`,
      'p/model/deep/u.ts': ``,
      'r/store/open.ts': `import './memory/m.ts';`,
      'r/store/memory/m.ts': `import '../batch.ts';`,
      'r/store/batch.ts': ``,
    });
    const problems = folderCycles(graph).map((p) => p.split('\n')[0]);
    assert.deepEqual(problems, [
      'folder (depth 1) cycle: certify -> reports -> certify',
      'folder (depth 2) cycle: p/model -> p/targets -> p/model',
    ]);
  });

  it('leaves tests out of folder cycles: a test sits above what it tests', () => {
    const graph = graphOf({
      'load/test/run.test.ts': `import '../../cli/main.ts';`,
      'cli/main.ts': `import '../load/run.ts';`,
      'load/run.ts': ``,
    });
    assert.deepEqual(folderCycles(graph), []);
  });
});
