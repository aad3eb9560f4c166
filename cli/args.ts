// The flag parser every subcommand shares: declared flags only, so an unknown
// flag or a missing value is a usage error (exit 2), never ignored. A flag
// left out is read from the configuration model (config.ts): its FLEETPROOF_*
// variable, then the config file, then its default; the run says where its
// target, key and profile came from.
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import {
  describeSource,
  envName,
  fileMember,
  readConfigFile,
  renamedWarning,
  resolveSettings,
  type SettingSource,
  type SettingSpec,
} from './config.ts';
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

/** The folder a run writes its reports to, on every command that writes one; --out until k6's --out (metric outputs) made it confusing. */
export function reportDirFlag(description: string): FlagSpec {
  return { type: 'string', formerly: 'out', description };
}

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

/** The exit-code table, where this copy of fleetproof holds it (the repository's docs/, or the installed package's dist/docs/). */
export const EXIT_CODES_DOC = fileURLToPath(new URL('../docs/exit-codes.md', import.meta.url));

/** The line every help ends with. */
export function exitCodesLine(): string {
  return `Exit codes: ${EXIT_CODES_DOC}`;
}

/** Where a command's flags are read from when left out, shown on one of its own settings. */
function settingsLine(flags: Record<string, FlagSpec>): string {
  const example = Object.entries(flags).find(([, f]) => !f.flagOnly && f.env === undefined && f.file === undefined);
  if (!example) return 'A flag left out is read from its FLEETPROOF_* variable, then from the config file.';
  const [name, spec] = example;
  return `A flag left out is read from FLEETPROOF_<FLAG> (e.g. --${name} from ${envName(name, spec)}), then from the config file (member ${fileMember(name, spec)}).`;
}

export function helpText(command: string, summary: string, flags: Record<string, FlagSpec>, positionals = ''): string {
  const rows = Object.entries(withConfigFlag(flags)).map(([name, f]) => {
    const left = `${f.short ? `-${f.short}, ` : ''}--${name}${f.type === 'string' ? ' VALUE' : ''}`;
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
    `  ${'-h, --help'.padEnd(28)} show this help`,
    '',
    settingsLine(flags),
    exitCodesLine(),
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
  // Node's own words for `--runs -1` run to three lines; one says it.
  const ambiguous = /^Option '(-{1,2}[^']+)' argument is ambiguous/.exec(err.message)?.[1];
  if (ambiguous) {
    // `-H=v` would give the value "=v": the form to write is the long flag's.
    const short = Object.entries(flags).find(([, f]) => f.short !== undefined && `-${f.short}` === ambiguous)?.[0];
    const long = short === undefined ? ambiguous : `--${short}`;
    return new UsageError(`${ambiguous} takes a value, and what follows it starts with a dash: write ${long}=VALUE; ${helpHint(command)}`);
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

/** The usage error for a subcommand a command of subcommands does not have. */
export function unknownSubcommand(given: string, names: readonly string[]): UsageError {
  return new UsageError(`unknown subcommand ${given}; use ${names.join(' or ')}`);
}

/** True when argv asks for a command's help rather than a run. */
export function asksForHelp(argv: readonly string[]): boolean {
  return argv.includes('--help') || argv.includes('-h');
}

/**
 * The flags and positionals argv gives, by name, with nothing filled in: an
 * unknown flag, a missing value or a positional the command takes none of is
 * a usage error. The dispatcher calls it with the command's flag table alone
 * (flags/), so such a mistake is told before the command itself is loaded.
 */
export function readArgv(
  command: string,
  flags: Record<string, FlagSpec>,
  argv: string[],
  positionals?: string,
): { given: Record<string, unknown>; positionals: string[] } {
  const all = withConfigFlag(flags);
  const spec: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {};
  for (const [name, f] of Object.entries(all)) {
    spec[name] = { type: f.type };
    if (f.multiple) spec[name].multiple = true;
    if (f.short) spec[name].short = f.short;
    if (f.formerly) spec[f.formerly] = { type: f.type, ...(f.multiple ? { multiple: true } : {}) };
  }
  try {
    const parsed = parseArgs({ args: argv, options: spec, strict: true, allowPositionals: positionals !== undefined });
    return { given: parsed.values as Record<string, unknown>, positionals: parsed.positionals };
  } catch (err) {
    throw parseError(command, all, err as NodeJS.ErrnoException);
  }
}

/** Parses argv and fills the rest from the environment and the config file; prints help and returns null for --help. */
export function parseFlags<S extends Record<string, FlagSpec>>(
  command: string,
  summary: string,
  flags: S,
  argv: string[],
  options: { positionals?: string; env?: NodeJS.ProcessEnv; cwd?: string; announce?: (line: string) => void } = {},
): Parsed<S> | null {
  if (asksForHelp(argv)) {
    console.log(helpText(command, summary, flags, options.positionals));
    return null;
  }
  const all = withConfigFlag(flags);
  const { given, positionals } = readArgv(command, flags, argv, options.positionals);
  const env = options.env ?? process.env;
  const warn = options.announce ?? ((line: string) => console.error(line));
  for (const [name, f] of Object.entries(all)) {
    if (f.formerly === undefined || given[f.formerly] === undefined) continue;
    if (given[name] !== undefined) throw new UsageError(`--${f.formerly} and --${name} name the same setting; give --${name} alone`);
    given[name] = given[f.formerly];
    delete given[f.formerly];
    warn(`fleetproof ${command}: warning: ${renamedWarning(`--${f.formerly}`, `--${name}`)}`);
  }
  const file = readConfigFile(
    (given['config'] as string | undefined) ?? (env['FLEETPROOF_CONFIG'] || undefined),
    options.cwd ?? process.cwd(),
  );
  const { values, sources, warnings } = resolveSettings(flags, given, env, file);
  for (const warning of warnings) warn(`fleetproof ${command}: warning: ${warning}`);
  for (const name of ANNOUNCED) {
    if (name in flags && values[name] !== undefined)
      warn(`fleetproof ${command}: ${name} ${String(values[name])} ${origin(sources[name])}`);
  }
  return { values: values as FlagValues<S>, positionals, sources: sources as Parsed<S>['sources'] };
}

/** The environment variables and config file members a command's flags are read from. */
export function settingNames(flags: Record<string, FlagSpec>): { env: string[]; members: string[] } {
  const entries = Object.entries(flags).filter(([, f]) => !f.flagOnly);
  const former = entries.flatMap(([, f]) => (f.formerly ? [f.formerly] : []));
  return {
    env: [...entries.map(([n, f]) => envName(n, f)), ...former.map((n) => envName(n, { type: 'string' }))],
    members: [...entries.map(([n, f]) => fileMember(n, f)), ...former.map((n) => fileMember(n, { type: 'string' }))],
  };
}
