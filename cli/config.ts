// The one configuration model of every command: a setting comes from its
// flag, else its FLEETPROOF_* environment variable, else the config file
// (--config FILE, FLEETPROOF_CONFIG, or fleetproof.config.json in the working
// directory), else its default. A setting has the same name everywhere: the
// flag --timeout-ms is FLEETPROOF_TIMEOUT_MS and "timeout_ms" in the file,
// unless its declaration names another variable or member. Where each value
// came from is kept, so a run can say it.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { closest } from './suggest.ts';
import { FleetproofError } from '../client/errors.ts';

export class ConfigProblem extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_CONFIG', message, options);
  }
}

export const CONFIG_FILE_NAME = 'fleetproof.config.json';

/** The declaration of a setting, as a command's flag. */
export interface SettingSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  /** The environment variable, when it is not FLEETPROOF_<FLAG>. */
  env?: string;
  /** The config file member, when it is not the flag in snake_case. */
  file?: string;
  /** A flag only: never read from the environment or the file (a one-off action such as --write-plan). */
  flagOnly?: boolean;
  /** How a repeatable setting's values are separated in a variable: commas unless a value may hold them. */
  separator?: ',' | '\n';
  /** The setting's name before it was renamed: its flag, variable and member still work for one release, with a warning. */
  formerly?: string;
}

export type SettingSource =
  { from: 'flag'; flag: string } | { from: 'env'; name: string } | { from: 'file'; path: string; member: string } | { from: 'default' };

/** Variables that are no command's setting but mean something to fleetproof. */
export const OTHER_VARIABLES: Readonly<Record<string, string>> = {
  FLEETPROOF_CONFIG: 'the config file, when --config is not given',
  FLEETPROOF_ALLOW_DEFECTS: 'development: 1 lets --defect build a deliberate defect into the reference (serve, properties)',
  FLEETPROOF_JWKS: 'the JWK set `serve` trusts, as JSON, when --jwks is not given',
  FLEETPROOF_TOKEN: 'a bearer token for the curl commands that reproduce failed exchanges',
  FLEETPROOF_RUN_FILE: 'set by `load` for its k6 scripts: the run plan',
  FLEETPROOF_SUMMARY_FILE: 'set by `load` for its k6 scripts: where the summary goes',
  FLEETPROOF_TEST: 'development: set by the test runner in every test process',
  FLEETPROOF_TEST_TIMEOUT_S: 'development: the time limit of one test',
  FLEETPROOF_TEST_FILE_TIMEOUT_S: 'development: the time limit of one test file',
  FLEETPROOF_TEST_CONCURRENCY: 'development: test files run at once',
  FLEETPROOF_TEST_HEARTBEAT_S: 'development: how often a quiet test run says what is running',
  FLEETPROOF_TEST_FROM_SOURCES: 'development: 1 runs every test file from the TypeScript sources, through tsx, not from the compiled tree',
};

export function envName(flag: string, spec: SettingSpec): string {
  return spec.env ?? `FLEETPROOF_${flag.toUpperCase().replace(/-/g, '_')}`;
}

export function fileMember(flag: string, spec: SettingSpec): string {
  return spec.file ?? flag.replace(/-/g, '_');
}

export function describeSource(source: SettingSource): string {
  switch (source.from) {
    case 'flag':
      return `--${source.flag}`;
    case 'env':
      return source.name;
    case 'file':
      return `"${source.member}" in ${source.path}`;
    case 'default':
      return 'default';
  }
}

export interface ConfigFile {
  path: string;
  members: Record<string, unknown>;
}

/** The config file named by --config or FLEETPROOF_CONFIG, else ./fleetproof.config.json when there is one. */
export function readConfigFile(named: string | undefined, cwd: string): ConfigFile | null {
  const path = named ?? (existsSync(resolve(cwd, CONFIG_FILE_NAME)) ? CONFIG_FILE_NAME : undefined);
  if (path === undefined) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(resolve(cwd, path), 'utf8'));
  } catch (err) {
    const cause = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
    throw new ConfigProblem(`cannot read the config file ${path}: ${cause}; fix the file or name another with --config FILE`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new ConfigProblem(`the config file ${path} must hold one JSON object of settings`);
  return { path, members: parsed as Record<string, unknown> };
}

function fromEnvironment(flag: string, spec: SettingSpec, text: string, name: string): string | boolean | string[] {
  if (spec.type === 'boolean') {
    if (/^(1|true|yes)$/i.test(text)) return true;
    if (/^(0|false|no)$/i.test(text)) return false;
    throw new ConfigProblem(`${name}=${text} is not a yes or no; use 1 or 0`);
  }
  return spec.multiple
    ? text
        .split(spec.separator ?? ',')
        .map((s) => s.trim())
        .filter(Boolean)
    : text;
}

function fromFile(flag: string, spec: SettingSpec, value: unknown, where: string): string | boolean | string[] {
  if (spec.type === 'boolean') {
    if (typeof value !== 'boolean') throw new ConfigProblem(`${where} must be true or false`);
    return value;
  }
  const scalar = (v: unknown) => {
    if (typeof v === 'string') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    throw new ConfigProblem(`${where} must be ${spec.multiple ? 'a list of strings' : 'a string or a number'}`);
  };
  if (spec.multiple)
    return Array.isArray(value)
      ? value.map(scalar)
      : scalar(value)
          .split(spec.separator ?? ',')
          .map((s) => s.trim())
          .filter(Boolean);
  return scalar(value);
}

export interface Resolved {
  values: Record<string, unknown>;
  sources: Record<string, SettingSource>;
  /** One line per renamed setting still given by its old name. */
  warnings: string[];
}

/** What replaces a renamed setting's old name wherever it was given, and the warning that says so. */
export function renamedWarning(oldName: string, newName: string): string {
  return `${oldName} is renamed ${newName} (k6's --out names metric outputs); ${oldName} will stop working in the next release`;
}

/** A renamed setting's old variable or member, when the new one is not set: read with a warning. */
function formerSetting(
  flag: string,
  spec: SettingSpec,
  env: NodeJS.ProcessEnv,
  file: ConfigFile | null,
): { value: unknown; source: SettingSource; warning: string } | undefined {
  if (spec.formerly === undefined || spec.flagOnly) return undefined;
  const oldEnv = envName(spec.formerly, { type: spec.type });
  const oldMember = fileMember(spec.formerly, { type: spec.type });
  if (env[oldEnv] !== undefined && env[oldEnv] !== '')
    return {
      value: fromEnvironment(flag, spec, env[oldEnv]!, oldEnv),
      source: { from: 'env', name: oldEnv },
      warning: renamedWarning(oldEnv, envName(flag, spec)),
    };
  if (file && Object.hasOwn(file.members, oldMember))
    return {
      value: fromFile(flag, spec, file.members[oldMember], `"${oldMember}" in ${file.path}`),
      source: { from: 'file', path: file.path, member: oldMember },
      warning: renamedWarning(`"${oldMember}" in ${file.path}`, `"${fileMember(flag, spec)}"`),
    };
  return undefined;
}

/** Fills every setting the flags left out from the environment, then the file, then its default. */
export function resolveSettings(
  specs: Record<string, SettingSpec & { default?: string | boolean }>,
  given: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  file: ConfigFile | null,
): Resolved {
  const values: Record<string, unknown> = {};
  const sources: Record<string, SettingSource> = {};
  const warnings: string[] = [];
  for (const [flag, spec] of Object.entries(specs)) {
    const name = envName(flag, spec);
    const member = fileMember(flag, spec);
    const former =
      given[flag] === undefined && !(env[name] ?? '') && !(file && Object.hasOwn(file.members, member))
        ? formerSetting(flag, spec, env, file)
        : undefined;
    if (former) {
      values[flag] = former.value;
      sources[flag] = former.source;
      warnings.push(former.warning);
    } else if (given[flag] !== undefined) {
      values[flag] = given[flag];
      sources[flag] = { from: 'flag', flag };
    } else if (!spec.flagOnly && env[name] !== undefined && env[name] !== '') {
      values[flag] = fromEnvironment(flag, spec, env[name]!, name);
      sources[flag] = { from: 'env', name };
    } else if (!spec.flagOnly && file && Object.hasOwn(file.members, member)) {
      values[flag] = fromFile(flag, spec, file.members[member], `"${member}" in ${file.path}`);
      sources[flag] = { from: 'file', path: file.path, member };
    } else if (spec.default !== undefined) {
      values[flag] = spec.default;
      sources[flag] = { from: 'default' };
    }
  }
  return { values, sources, warnings };
}

/** A FLEETPROOF_* variable no command reads: a warning naming the closest known one. */
export function unknownVariables(env: NodeJS.ProcessEnv, known: readonly string[]): string[] {
  const all = [...known, ...Object.keys(OTHER_VARIABLES)];
  return Object.keys(env)
    .filter((name) => name.startsWith('FLEETPROOF_') && !all.includes(name))
    .map((name) => {
      const near = closest(name, all);
      return `${name} is not a fleetproof setting and is ignored${near ? `; did you mean ${near}?` : ''}`;
    });
}

/** A config file member no command reads is a mistake: the file would silently not do what it says. */
export function unknownMembers(file: ConfigFile, known: readonly string[]): string[] {
  return Object.keys(file.members)
    .filter((m) => !known.includes(m))
    .map((m) => {
      const near = closest(m, known);
      return `"${m}" in ${file.path} is not a fleetproof setting${near ? `; did you mean "${near}"?` : ''}`;
    });
}
