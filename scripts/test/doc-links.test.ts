// The docs point at what is there: every relative link and every repository
// path they name in code spans exists, and every doc that speaks of exit
// codes links to the one table (docs/exit-codes.md) instead of keeping its own.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { repositoryFiles } from '../test-runner/compiled-tree.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOCS = repositoryFiles(ROOT).filter((f) => f.endsWith('.md') && !f.includes('/test/'));
/** Top-level names a path in a code span starts with to count as a path of this repository. */
const TOP = new Set(repositoryFiles(ROOT).map((f) => f.split('/')[0]!));

function links(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:|^#/.test(l));
}

/** `conformance/README.md`, `load/runner/run-load.ts`: code spans that name a file or folder of the repository. */
function namedPaths(markdown: string): string[] {
  const spans = [...markdown.replace(/```[\s\S]*?```/g, '').matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!);
  const inRepository = (s: string) => TOP.has(s.split('/')[0]!) || s.startsWith('../');
  return spans.filter((s) => s.includes('/') && inRepository(s) && !/[<>*{}…$]|\.\.\./.test(s) && !s.includes('reports/runs/'));
}

/** A `../` path that leaves the repository (`../shared/tools/k6` from the top) names the machine around a clone, not the repository. */
const insideRepository = (from: string, path: string) => !relative(ROOT, join(ROOT, dirname(from), path)).startsWith('..');

const exists = (from: string, path: string) => {
  const clean = path.replace(/#.*$/, '').replace(/:\d+$/, '');
  return existsSync(join(ROOT, dirname(from), clean)) || (!clean.startsWith('../') && existsSync(join(ROOT, clean)));
};

test('the docs are found: README.md and the guides', () => {
  assert.ok(DOCS.includes('README.md') && DOCS.includes('docs/exit-codes.md'), `docs found: ${DOCS.join(', ') || 'none'}`);
});

test('every relative link in the docs leads to a file or folder that exists', () => {
  const broken = DOCS.flatMap((doc) =>
    links(readFileSync(join(ROOT, doc), 'utf8'))
      .filter((l) => !exists(doc, l))
      .map((l) => `${doc}: ${l}`),
  );
  assert.deepEqual(broken, []);
});

test('every repository path the docs name in a code span exists', () => {
  const missing = DOCS.flatMap((doc) =>
    namedPaths(readFileSync(join(ROOT, doc), 'utf8'))
      .filter((p) => insideRepository(doc, p) && !exists(doc, p))
      .map((p) => `${doc}: ${p}`),
  );
  assert.deepEqual(missing, []);
});

test('every doc that speaks of exit codes links to the one exit-code table', () => {
  const table = join(ROOT, 'docs', 'exit-codes.md');
  const without = DOCS.filter((doc) => {
    const text = readFileSync(join(ROOT, doc), 'utf8');
    if (join(ROOT, doc) === table || !/exit code|\bexit(s)? [0-9]/i.test(text)) return false;
    return !links(text).some((l) => join(ROOT, dirname(doc), l.replace(/#.*$/, '')) === table);
  });
  assert.deepEqual(without, [], `link these to ${relative(ROOT, table)}`);
});
