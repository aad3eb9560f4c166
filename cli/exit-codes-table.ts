// The exit-code table and the harness's error codes, generated from
// client/errors.ts so docs/exit-codes.md cannot drift from what the commands
// do; a test holds the document to it.
import { EXIT_CODES, HARNESS_ERRORS } from '../client/errors.ts';

const cell = (text: string) => text.replace(/\|/g, '\\|');

export const EXIT_TABLE_START = '<!-- exit-code tables: generated from client/errors.ts; npm test checks them -->';
export const EXIT_TABLE_END = '<!-- end of exit-code tables -->';

export function exitCodeTables(): string {
  const lines = ['| exit | meaning |', '| --- | --- |'];
  for (const [code, meaning] of Object.entries(EXIT_CODES)) lines.push(`| ${code} | ${cell(meaning)} |`);
  lines.push('', '| error code | exit | meaning |', '| --- | --- | --- |');
  for (const [code, { exit, meaning }] of Object.entries(HARNESS_ERRORS)) lines.push(`| \`${code}\` | ${exit} | ${cell(meaning)} |`);
  return lines.join('\n');
}
