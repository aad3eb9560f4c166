// One exit-code table: docs/exit-codes.md is the table client/errors.ts
// generates, every error code in it is one the harness raises, and a harness
// error that reaches a command ends it with its code's exit code, naming the
// code.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { HARNESS_ERRORS } from '../../client/errors.ts';
import { listSourceFiles } from '../../scripts/architecture/import-graph.ts';
import { isTestFile } from '../../scripts/architecture/layers.ts';
import { exitCodeTables, EXIT_TABLE_END, EXIT_TABLE_START } from '../exit-codes-table.ts';
import { main } from '../main.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('docs/exit-codes.md holds the tables client/errors.ts generates', async () => {
  const doc = await readFile(fileURLToPath(new URL('../../docs/exit-codes.md', import.meta.url)), 'utf8');
  const body = doc.slice(doc.indexOf(EXIT_TABLE_START) + EXIT_TABLE_START.length, doc.indexOf(EXIT_TABLE_END)).trim();
  assert.equal(body, exitCodeTables(), 'the tables are stale: npm run docs:tables');
});

test('every error code in the table is one the harness raises', async () => {
  const sources = listSourceFiles(root).filter((f) => !isTestFile(f) && f !== 'client/errors.ts' && !f.startsWith('scripts/'));
  const text = (await Promise.all(sources.map((f) => readFile(`${root}/${f}`, 'utf8')))).join('\n');
  const unraised = Object.keys(HARNESS_ERRORS).filter((code) => !text.includes(`'${code}'`));
  assert.deepEqual(unraised, [], 'codes no harness error carries: remove them from client/errors.ts');
});

test('a harness error that reaches a command ends it with its exit code and names its code', async (t) => {
  const lines: string[] = [];
  t.mock.method(console, 'error', (line: string) => lines.push(line));
  const code = await main(['report', '--merge', 'part-a', '--plan', fileURLToPath(new URL('./no-such-plan.json', import.meta.url))]);
  t.mock.restoreAll();
  assert.equal(code, HARNESS_ERRORS.FP_ERR_PLAN.exit);
  assert.match(lines.join('\n'), /^fleetproof report: could not run: .*no-such-plan\.json.* \[FP_ERR_PLAN\]$/m);
  lines.length = 0;
  t.mock.method(console, 'error', (line: string) => lines.push(line));
  const usage = await main(['report', '--merge', 'part-a', '--no-such-flag']);
  t.mock.restoreAll();
  assert.equal(usage, HARNESS_ERRORS.FP_ERR_USAGE.exit);
  assert.match(lines.join('\n'), /^fleetproof report: unknown flag --no-such-flag.*--help.* \[FP_ERR_USAGE\]$/m);
});
