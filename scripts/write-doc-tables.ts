// Rewrites the generated tables of the docs (npm run docs:tables) after a
// flag, an exit code or a harness error code is added or changed: the
// settings table in docs/configuration.md from the commands' own flag
// declarations, and the exit-code tables in docs/exit-codes.md from
// client/errors.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { exitCodeTables, EXIT_TABLE_END, EXIT_TABLE_START } from '../cli/exit-codes-table.ts';
import { settingsTable, TABLE_END, TABLE_START } from '../cli/settings-table.ts';

function rewrite(file: string, start: string, end: string, table: string): void {
  const path = fileURLToPath(new URL(`../docs/${file}`, import.meta.url));
  const doc = readFileSync(path, 'utf8');
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${path} lost its table markers`);
  writeFileSync(path, `${doc.slice(0, from + start.length)}\n${table}\n${doc.slice(to)}`);
  console.log(`wrote the generated table of ${path}`);
}

rewrite('configuration.md', TABLE_START, TABLE_END, await settingsTable());
rewrite('exit-codes.md', EXIT_TABLE_START, EXIT_TABLE_END, exitCodeTables());
