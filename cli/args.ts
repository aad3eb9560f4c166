// The flag parser every subcommand shares: declared flags only, so an unknown
// flag or a missing value is a usage error (exit 2), never ignored. A flag
// left out is read from the configuration model (config.ts): its FLEETPROOF_*
// variable, then the config file, then its default; the run says where its
// target, key and profile came from.
import { parseArgs } from 'node:util';
import { describeSource, envName, fileMember, readConfigFile, resolveSettings, type SettingSource, type SettingSpec } from './config.ts';
import { didYouMean } from './suggest.ts';
import { FleetproofError } from '../client/errors.ts';

/** Could not run as asked: one line saying what is wrong and how to fix it; exit 2. */
export class UsageError extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_USAGE', message, options);
  }
}

export interface FlagSpec extends SettingSpec {
  short?: string;
  description: string;
  default?: string | boolean;
}

export type FlagValues<S extends Record<string, FlagSpec>> = {
  [K in keyof S]: S[K]['type'] extends 'boolean'
    ? boolean | undefined
    : S[K]['multiple'] extends true
      ? string[] | undefined
      : string | undefined;
};

/** Every command reads a config file; its own flag is implied. */
const CONFIG_FLAG: FlagSpec = {
  type: 'string',
  flagOnly: true,
  description: `JSON config file of settings (FLEETPROOF_CONFIG; default ./fleetproof.config.json when present)`,
};

/** The settings whose origin a run announces: mistaking them certifies the wrong thing. */
const ANNOUNCED = ['target', 'key', 'profile'];

function withConfigFlag(flags: Record<string, FlagSpec>): Record<string, FlagSpec> {
  return { ...flags, config: CONFIG_FLAG };
}

export function helpText(command: string, summary: string, flags: Record<string, FlagSpec>, positionals = ''): string {
  const rows = Object.entries(withConfigFlag(flags)).map(([name, f]) => {
    const left = `--${name}${f.type === 'string' ? ' VALUE' : ''}`;
    const dflt = f.default !== undefined ? ` (default ${String(f.default)})` : '';
    return `  ${left.padEnd(28)} ${f.description}${dflt}`;
  });
  return [
    `usage: fleetproof ${command} [options]${positionals ? ' ' + positionals : ''}`,
    '',
    summary,
    '',
    'options:',
    ...rows,
    `  ${'--help'.padEnd(28)} show this help`,
    '',
    'A flag left out is read from FLEETPROOF_<FLAG> (e.g. --timeout-ms from FLEETPROOF_TIMEOUT_MS), then from the config file (member timeout_ms).',
  ].join('\n');
}

/** The hint every usage error ends with. */
export function helpHint(command: string): string {
  return `run \`fleetproof ${command} --help\` for the options`;
}

function parseError(command: string, flags: Record<string, FlagSpec>, err: NodeJS.ErrnoException): UsageError {
  const unknown = /^Unknown option '(-{1,2}[^']+)'/.exec(err.message)?.[1];
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) {
    const hint = didYouMean(unknown.replace(/^-+/, ''), Object.keys(flags), (n) => `--${n}`);
    return new UsageError(`unknown flag ${unknown}${hint}; ${helpHint(command)}`);
  }
  return new UsageError(`${err.message.replace(/\.$/, '')}; ${helpHint(command)}`);
}

export interface Parsed<S extends Record<string, FlagSpec>> {
  values: FlagValues<S>;
  positionals: string[];
  /** Where each setting with a value came from. */
  sources: Partial<Record<keyof S, SettingSource>>;
}

/** Where a setting came from, as a run prints it: `(from FLEETPROOF_TARGET)`. */
export function origin(source: SettingSource | undefined): string {
  return source ? `(from ${describeSource(source)})` : '(not set)';
}

/** Parses argv and fills the rest from the environment and the config file; prints help and returns null for --help. */
export function parseFlags<S extends Record<string, FlagSpec>>(
  command: string,
  summary: string,
  flags: S,
  argv: string[],
  options: { positionals?: string; env?: NodeJS.ProcessEnv; cwd?: string; announce?: (line: string) => void } = {},
): Parsed<S> | null {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(helpText(command, summary, flags, options.positionals));
    return null;
  }
  const all = withConfigFlag(flags);
  const spec: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {};
  for (const [name, f] of Object.entries(all)) {
    spec[name] = { type: f.type };
    if (f.multiple) spec[name].multiple = true;
    if (f.short) spec[name].short = f.short;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: spec, strict: true, allowPositionals: options.positionals !== undefined });
  } catch (err) {
    throw parseError(command, all, err as NodeJS.ErrnoException);
  }
  const env = options.env ?? process.env;
  const given = parsed.values as Record<string, unknown>;
  const file = readConfigFile(
    (given['config'] as string | undefined) ?? (env['FLEETPROOF_CONFIG'] || undefined),
    options.cwd ?? process.cwd(),
  );
  const { values, sources } = resolveSettings(flags, given, env, file);
  const announce = options.announce ?? ((line: string) => console.error(line));
  for (const name of ANNOUNCED) {
    if (name in flags && values[name] !== undefined)
      announce(`fleetproof ${command}: ${name} ${String(values[name])} ${origin(sources[name])}`);
  }
  return { values: values as FlagValues<S>, positionals: parsed.positionals, sources: sources as Parsed<S>['sources'] };
}

/** The environment variables and config file members a command's flags are read from. */
export function settingNames(flags: Record<string, FlagSpec>): { env: string[]; members: string[] } {
  const entries = Object.entries(flags).filter(([, f]) => !f.flagOnly);
  return { env: entries.map(([n, f]) => envName(n, f)), members: entries.map(([n, f]) => fileMember(n, f)) };
}
