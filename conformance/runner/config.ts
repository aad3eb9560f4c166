// The configuration of a conformance run, validated in one place whatever it
// came from: the CLI reads flags, FLEETPROOF_* variables and a config file
// (cli/config.ts) and hands them here in that order, earlier winning. A bad
// value anywhere is a ConfigError, which the CLI turns into exit 2 ("could
// not run").
import { DEFAULT_AUDIENCE } from '../../contract/token-defaults.ts';
import type { CredentialChoice } from '../../client/credential-sources.ts';
import { BUDGETED_STAGES, parseBudgets, type StageBudgets } from '../../client/stage-budget.ts';
import { CATEGORY_NAMES, FEATURES, isCategory, isFeature, type Category, type Feature } from '../harness/vocabulary.ts';
import { FleetproofError } from '../../client/errors.ts';

export class ConfigError extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_CONFIG', message, options);
  }
}

export interface ConformConfig {
  /** Base URL of the registry under test. */
  target: string;
  /**
   * Private Ed25519 JWK the target trusts (its public half is in the target's
   * JWK set); null when the vendor's own credentials (--token-cmd, --header)
   * authenticate the run.
   */
  keyFile: string | null;
  /** Where reports go; default reports/runs/<run id>/. */
  out: string | null;
  categories: Category[];
  cases: string[];
  /** Replaces the features the target declares, when set. */
  features: Feature[] | null;
  concurrency: number;
  /** Per case; `slow` cases get four times as long. Each request gets the same bound, on the whole exchange. */
  timeoutMs: number;
  audience: string;
  /** The budgets given (--budget); the conformance and retirement stages scale theirs from the run otherwise. */
  budgets: StageBudgets;
}

/** What each source may give: every field optional, values as text or already typed (config file). */
export type ConfigInput = Partial<Record<keyof ConformConfig, unknown>>;

export const DEFAULTS = { concurrency: 8, timeoutMs: 30_000, audience: DEFAULT_AUDIENCE } as const;

function list(value: unknown, what: string): string[] {
  if (Array.isArray(value) && value.every((v) => typeof v === 'string'))
    return value
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter(Boolean);
  if (typeof value === 'string')
    return value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  throw new ConfigError(`${what} must be a list of names`);
}

function integer(value: unknown, what: string, min: number, max: number): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^[0-9]+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new ConfigError(`${what} must be an integer between ${min} and ${max}, not ${JSON.stringify(value)}`);
  return n;
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ConfigError(`${what} must be a non-empty string`);
  return value.trim();
}

/** Merges sources (earlier wins) and validates every field. */
export function resolveConfig(...sources: ConfigInput[]): ConformConfig {
  const pick = (field: keyof ConformConfig): unknown => {
    for (const s of sources) if (s[field] !== undefined) return s[field];
    return undefined;
  };
  const targetValue = pick('target');
  if (targetValue === undefined)
    throw new ConfigError('no target: give --target URL (or FLEETPROOF_TARGET, or "target" in the config file)');
  const target = text(targetValue, 'target').replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new ConfigError(`target ${target} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`target ${target} must be an http or https URL`);
  if (url.search || url.hash) throw new ConfigError(`target ${target} must be a base URL without query or fragment`);
  const keyValue = pick('keyFile');
  const categories = list(pick('categories') ?? [], 'categories');
  const unknownCategory = categories.find((c) => !isCategory(c));
  if (unknownCategory) throw new ConfigError(`unknown category ${unknownCategory} (known: ${CATEGORY_NAMES.join(', ')})`);
  const featuresValue = pick('features');
  const features = featuresValue === undefined ? null : list(featuresValue, 'features');
  const unknownFeature = features?.find((f) => !isFeature(f));
  if (unknownFeature) throw new ConfigError(`unknown feature ${unknownFeature} (known: ${FEATURES.join(', ')})`);
  const out = pick('out');
  return {
    target,
    keyFile: keyValue === undefined || keyValue === null ? null : text(keyValue, 'key'),
    out: out === undefined || out === null ? null : text(out, 'out'),
    categories: [...new Set(categories)] as Category[],
    cases: [...new Set(list(pick('cases') ?? [], 'cases'))],
    features: features ? ([...new Set(features)] as Feature[]) : null,
    concurrency: integer(pick('concurrency') ?? DEFAULTS.concurrency, 'concurrency', 1, 256),
    timeoutMs: integer(pick('timeoutMs') ?? DEFAULTS.timeoutMs, 'timeout-ms', 100, 3_600_000),
    audience: text(pick('audience') ?? DEFAULTS.audience, 'audience'),
    budgets: budgetsOf(pick('budgets')),
  };
}

function budgetsOf(value: unknown): StageBudgets {
  if (value === undefined) return {};
  // Already in milliseconds, from a command that read --budget itself (certify).
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (
      entries.every(
        ([stage, ms]) => (BUDGETED_STAGES as readonly string[]).includes(stage) && Number.isSafeInteger(ms) && (ms as number) > 0,
      )
    )
      return value as StageBudgets;
    throw new ConfigError(`budget must be a list of STAGE=DURATION, not ${JSON.stringify(value)}`);
  }
  try {
    return parseBudgets(list(value, 'budget'));
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}

/** The configuration as reports show it: no credentials, no secrets in URLs. */
export function redactConfig(config: ConformConfig, keyId: string | null, auth: CredentialChoice = {}): Record<string, unknown> {
  const url = new URL(config.target);
  if (url.username || url.password) {
    url.username = url.username ? 'redacted' : '';
    url.password = url.password ? 'redacted' : '';
  }
  return {
    target: url.toString().replace(/\/$/, ''),
    key: config.keyFile === null && keyId === null ? null : { file: config.keyFile, kid: keyId, private_key: '[redacted]' },
    // The command and the headers may hold secrets: only that they were given, and the headers' names.
    credentials: {
      token_cmd: auth.tokenCommand !== undefined,
      headers: (auth.headers ?? []).map((h) => h.split(':')[0]!.trim().toLowerCase()),
    },
    out: config.out,
    categories: config.categories,
    cases: config.cases,
    features: config.features,
    concurrency: config.concurrency,
    timeout_ms: config.timeoutMs,
    audience: config.audience,
  };
}
