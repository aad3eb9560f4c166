// The `fleetproof conform` command that reruns a run, or one case of it,
// read from the configuration the result document records (config.ts
// redactConfig): the same target, credentials (secrets as placeholders),
// selection, features and bounds.
import { commandLine, credentialArgs } from '../../client/rerun.ts';
import { DEFAULTS } from './config.ts';

/** The recorded configuration, as far as a rerun needs it; older documents lack some members. */
interface RecordedConfig {
  target?: unknown;
  key?: { file?: unknown } | null;
  credentials?: { token_cmd?: unknown; headers?: unknown };
  categories?: unknown;
  cases?: unknown;
  features?: unknown;
  concurrency?: unknown;
  timeout_ms?: unknown;
  audience?: unknown;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The target and credentials, then the selection (one case, or the run's own), then the bounds that differ from the defaults. */
function conformArgs(config: Record<string, unknown>, selection: 'run' | { case: string } | 'none'): string[] {
  const c = config as RecordedConfig;
  const args = [
    '--target',
    String(c.target ?? 'URL'),
    ...credentialArgs({
      keyFile: typeof c.key?.file === 'string' ? c.key.file : null,
      tokenCommand: c.credentials?.token_cmd === true,
      headerNames: strings(c.credentials?.headers),
    }),
  ];
  if (selection === 'run')
    args.push(...strings(c.categories).flatMap((x) => ['--category', x]), ...strings(c.cases).flatMap((x) => ['--case', x]));
  else if (selection !== 'none') args.push('--case', selection.case);
  if (selection !== 'none' && Array.isArray(c.features)) args.push('--features', strings(c.features).join(','));
  if (selection === 'run' && typeof c.concurrency === 'number' && c.concurrency !== DEFAULTS.concurrency)
    args.push('--concurrency', String(c.concurrency));
  if (typeof c.timeout_ms === 'number' && c.timeout_ms !== DEFAULTS.timeoutMs) args.push('--timeout-ms', String(c.timeout_ms));
  if (typeof c.audience === 'string' && c.audience !== DEFAULTS.audience) args.push('--audience', c.audience);
  return args;
}

/** `what`: the run's own selection, or one case; `keepData` when the run kept its records. */
export function conformRerun(config: Record<string, unknown>, what: { case?: string; keepData?: boolean } = {}): string {
  const args = conformArgs(config, what.case === undefined ? 'run' : { case: what.case });
  return commandLine('conform', what.keepData ? [...args, '--keep-data'] : args);
}

/** The command that retires the records a run kept, listed in `dir`: the run's own target and credentials. */
export function conformRetireCommand(config: Record<string, unknown>, dir: string): string {
  return commandLine('conform', ['--retire', dir, ...conformArgs(config, 'none')]);
}
