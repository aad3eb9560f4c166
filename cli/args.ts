// A small flag parser shared by every subcommand: declared flags only, so an
// unknown flag or a missing value is a usage error (exit 2), never ignored.
import { parseArgs } from 'node:util';

export class UsageError extends Error {}

export interface FlagSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  description: string;
  default?: string | boolean;
}

export type FlagValues<S extends Record<string, FlagSpec>> = {
  [K in keyof S]: S[K]['type'] extends 'boolean' ? boolean | undefined : S[K]['multiple'] extends true ? string[] | undefined : string | undefined;
};

export function helpText(command: string, summary: string, flags: Record<string, FlagSpec>, positionals = ''): string {
  const rows = Object.entries(flags).map(([name, f]) => {
    const left = `--${name}${f.type === 'string' ? ' VALUE' : ''}`;
    const dflt = f.default !== undefined ? ` (default ${String(f.default)})` : '';
    return `  ${left.padEnd(28)} ${f.description}${dflt}`;
  });
  return [`usage: fleetproof ${command} [options]${positionals ? ' ' + positionals : ''}`, '', summary, '', 'options:', ...rows, `  ${'--help'.padEnd(28)} show this help`].join('\n');
}

/** Parses argv; prints help and returns null for --help. */
export function parseFlags<S extends Record<string, FlagSpec>>(
  command: string,
  summary: string,
  flags: S,
  argv: string[],
  options: { positionals?: string } = {},
): { values: FlagValues<S>; positionals: string[] } | null {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(helpText(command, summary, flags, options.positionals));
    return null;
  }
  const spec: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {};
  for (const [name, f] of Object.entries(flags)) {
    spec[name] = { type: f.type };
    if (f.multiple) spec[name].multiple = true;
    if (f.short) spec[name].short = f.short;
  }
  try {
    const parsed = parseArgs({ args: argv, options: spec, strict: true, allowPositionals: options.positionals !== undefined });
    const values = parsed.values as Record<string, unknown>;
    for (const [name, f] of Object.entries(flags)) if (values[name] === undefined && f.default !== undefined) values[name] = f.default;
    return { values: values as FlagValues<S>, positionals: parsed.positionals };
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n\n${helpText(command, summary, flags, options.positionals)}`);
  }
}
