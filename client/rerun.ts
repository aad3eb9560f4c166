// The command line that reruns a run, as every result document records it:
// the same target, profile, seed and selection, with every secret left as a
// placeholder. Token commands and header values may hold credentials, so a
// document records only that they were given (and the headers' names); key
// files are paths, not secrets.

/** One argument for a POSIX shell, single-quoted unless it is plainly safe. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

export const TOKEN_COMMAND_PLACEHOLDER = 'YOUR TOKEN COMMAND {tenant} {roles}';
const HEADER_VALUE_PLACEHOLDER = 'YOUR VALUE';

/** How a run was authenticated, as far as a document may say. */
export interface CredentialsGiven {
  /** The signing key's file; null when none was given (or it was held in memory only). */
  keyFile: string | null;
  tokenCommand: boolean;
  /** The names of the static headers given. */
  headerNames: readonly string[];
}

/** The credential flags of a rerun, secrets as placeholders; a key held in memory only is named KEY. */
export function credentialArgs(c: CredentialsGiven): string[] {
  const args: string[] = [];
  if (c.tokenCommand) args.push('--token-cmd', TOKEN_COMMAND_PLACEHOLDER);
  if (c.keyFile !== null || (!c.tokenCommand && c.headerNames.length === 0)) args.push('--key', c.keyFile ?? 'KEY');
  for (const name of c.headerNames) args.push('--header', `${name}: ${HEADER_VALUE_PLACEHOLDER}`);
  return args;
}

/** The flags as given with the values of --token-cmd and --header replaced by placeholders. */
export function withoutSecrets(argv: readonly string[]): string[] {
  const out: string[] = [];
  const secret = (flag: string, value: string) =>
    flag === '--token-cmd' ? TOKEN_COMMAND_PLACEHOLDER : `${value.split(':')[0]!.trim()}: ${HEADER_VALUE_PLACEHOLDER}`;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.split(/=(.*)/s) as [string, string | undefined];
    if (flag !== '--token-cmd' && flag !== '--header') out.push(arg);
    else if (inline !== undefined) out.push(`${flag}=${secret(flag, inline)}`);
    else out.push(flag, secret(flag, argv[++i] ?? ''));
  }
  return out;
}

/** `npx fleetproof COMMAND ARGS...`, each argument quoted for a POSIX shell; `env` goes first (FC_SEED=1). */
export function commandLine(command: string, args: readonly string[], env: readonly string[] = []): string {
  return [...env, 'npx', 'fleetproof', command, ...args.map(shellQuote)].join(' ');
}
