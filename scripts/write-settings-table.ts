// Rewrites the settings table in docs/configuration.md from the commands' own
// flag declarations (npm run docs:settings), after a flag is added or changed.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { settingsTable, TABLE_END, TABLE_START } from '../cli/settings-table.ts';

const path = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));
const doc = readFileSync(path, 'utf8');
const start = doc.indexOf(TABLE_START);
const end = doc.indexOf(TABLE_END);
if (start < 0 || end < start) throw new Error(`${path} lost its table markers`);
writeFileSync(path, `${doc.slice(0, start + TABLE_START.length)}\n${await settingsTable()}\n${doc.slice(end)}`);
console.log(`wrote the settings table of ${path}`);
