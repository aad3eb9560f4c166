// The table of every setting, generated from the commands' own flag
// declarations so the documentation (docs/configuration.md) cannot drift from
// what the commands read; a test holds the document to it.
import { envName, fileMember, OTHER_VARIABLES } from './config.ts';
import type { FlagSpec } from './args.ts';
import { COMMANDS } from './main.ts';

const cell = (text: string) => text.replace(/\|/g, '\\|');

export const TABLE_START = "<!-- settings table: generated from the commands' flags; npm test checks it -->";
export const TABLE_END = '<!-- end of settings table -->';

export async function settingsTable(): Promise<string> {
  const rows = new Map<string, { spec: FlagSpec; commands: string[]; description: string }>();
  for (const [command, c] of Object.entries(COMMANDS)) {
    for (const [flag, spec] of Object.entries((await c.flags()).FLAGS)) {
      // The first command's wording; each command's --help says what the setting means to it.
      const row = rows.get(flag) ?? { spec, commands: [], description: spec.description.replace(/ \(FLEETPROOF_[A-Z_]+[^)]*\)/, '') };
      row.commands.push(command);
      rows.set(flag, row);
    }
  }
  const lines = ['| flag | environment | config file | commands | meaning |', '| --- | --- | --- | --- | --- |'];
  for (const [flag, { spec, commands, description }] of [...rows].sort(([a], [b]) => a.localeCompare(b))) {
    const value = spec.type === 'string' ? ` VALUE${spec.multiple ? ' (repeatable)' : ''}` : '';
    const env = spec.flagOnly
      ? '—'
      : `\`${envName(flag, spec)}\`${spec.multiple ? (spec.separator === '\n' ? ' (one per line)' : ' (comma list)') : ''}`;
    const member = spec.flagOnly ? '—' : `\`${fileMember(flag, spec)}\``;
    const names = `${spec.short ? `\`-${spec.short}\`, ` : ''}\`--${flag}${value}\``;
    const renamed = spec.formerly
      ? ` (until the next release also --${spec.formerly}, ${envName(spec.formerly, { type: spec.type })}, "${fileMember(spec.formerly, { type: 'string' })}", with a warning)`
      : '';
    lines.push(`| ${names} | ${env} | ${member} | ${commands.join(', ')} | ${cell(description + renamed)} |`);
  }
  lines.push('', '| other variable | meaning |', '| --- | --- |');
  for (const [name, meaning] of Object.entries(OTHER_VARIABLES)) lines.push(`| \`${name}\` | ${cell(meaning)} |`);
  return lines.join('\n');
}
