// Credentials a vendor brings instead of (or beside) the harness's minted
// tokens: a token command run for each tenant and role set
// (`--token-cmd 'CMD {tenant} {roles}'`, its stdout the bearer token) and
// static headers (`--header 'X-Api-Key: …'`). Both sit behind the
// Credentials interface, so every suite speaking through the transport uses
// them, and `authorize({ roles, tenant })` is the one call a preflight makes
// to see what a caller would present.
import { execFile } from 'node:child_process';
import { anonymous, mintedCredentials, type Authorization, type Caller, type Credentials, type Speaker } from './credentials.ts';
import type { TokenMinter } from './token-minter.ts';
import { FleetproofError } from './errors.ts';

export class CredentialSourceError extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_CREDENTIALS', message, options);
  }
}

/** A JWT is reused until this long before its `exp`, so no request carries a token that expires in flight. */
const RENEW_BEFORE_EXP_MS = 30_000;
/** A token that is no JWT says nothing of its lifetime: it is asked for again after this long. */
const OPAQUE_TOKEN_REUSE_MS = 5 * 60_000;
const COMMAND_TIMEOUT_MS = 30_000;

/**
 * Splits a command template into words as a shell would split it (single and
 * double quotes, backslash escapes) but expands nothing: the words are run
 * directly, never through a shell, so a substituted value is always one
 * argument and cannot become a command.
 */
export function splitCommand(template: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < template.length && '"\\'.includes(template[i + 1]!)) word += template[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < template.length) {
      word += template[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new CredentialSourceError(`--token-cmd has an unclosed ${quote} quote; close it`);
  if (inWord) words.push(word);
  if (words.length === 0) throw new CredentialSourceError('--token-cmd is empty; give the command that prints a bearer token');
  return words;
}

/** The argv for one caller: {tenant} is the tenant id (empty for none), {roles} the roles, comma-separated. */
export function commandFor(words: readonly string[], caller: Caller): string[] {
  const values: Record<string, string> = { tenant: caller.tenant ?? '', roles: [...caller.roles].sort().join(',') };
  return words.map((w) => w.replace(/\{(tenant|roles)\}/g, (_, name: string) => values[name]!));
}

/** When a JWT expires (ms since the epoch); null for anything else. */
export function jwtExpiry(token: string): number | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const exp = (JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null;
  } catch {
    return null;
  }
}

export type RunCommand = (argv: string[]) => Promise<string>;

/** Why the token command gave no token, said so that the user knows what to change. */
function commandFailure(program: string, err: Error & { code?: unknown }, stderr: string): string {
  if (err.code === 'ENOENT')
    return program.includes('/')
      ? `--token-cmd ${program}: no such file; check the path`
      : `--token-cmd ${program}: not on PATH; give the program's full path or add its folder to PATH`;
  if (err.code === 'EACCES') return `--token-cmd ${program}: not executable; chmod +x it or name the interpreter first (sh ${program} ...)`;
  return `--token-cmd ${program} failed (${err.code ?? err.message})${stderr.trim() ? `: ${stderr.trim().split('\n')[0]}` : ''}`;
}

const runCommand: RunCommand = (argv) =>
  new Promise((resolve, reject) => {
    execFile(argv[0]!, argv.slice(1), { timeout: COMMAND_TIMEOUT_MS, maxBuffer: 1 << 20, windowsHide: true }, (err, stdout, stderr) => {
      if (err) reject(new CredentialSourceError(commandFailure(argv[0]!, err, stderr)));
      else resolve(stdout);
    });
  });

function summary(caller: Caller): Authorization['caller'] {
  return { roles: [...caller.roles], tenant: caller.tenant ?? null };
}

type TokenCache = Map<string, { token: Promise<string>; renewAtMs: number }>;

/**
 * The tokens each command has printed, by the runner of commands. A
 * certification builds credentials from the same flags in each of its
 * stages; sharing the tokens runs the vendor's command once per caller in
 * the whole run, not once per stage.
 */
const printed = new WeakMap<RunCommand, Map<string, TokenCache>>();

function tokenCacheOf(run: RunCommand, template: string): TokenCache {
  const byTemplate = printed.get(run) ?? printed.set(run, new Map()).get(run)!;
  return byTemplate.get(template) ?? byTemplate.set(template, new Map()).get(template)!;
}

/** Tokens from a command, one per tenant and role set, reused until shortly before they expire. */
export function tokenCommandCredentials(template: string, options: { run?: RunCommand; now?: () => number } = {}): Credentials {
  const words = splitCommand(template);
  const run = options.run ?? runCommand;
  const now = options.now ?? Date.now;
  const cache = tokenCacheOf(run, template);
  const tokenFor = (caller: Caller): Promise<string> => {
    const argv = commandFor(words, caller);
    const key = JSON.stringify(argv);
    const cached = cache.get(key);
    if (cached && now() < cached.renewAtMs) return cached.token;
    const token = run(argv).then((stdout) => {
      const t = stdout.trim();
      if (t === '' || /\s/.test(t))
        throw new CredentialSourceError(
          `--token-cmd ${argv[0]} printed ${t === '' ? 'nothing' : 'more than one word'}; it must print exactly the bearer token`,
        );
      const exp = jwtExpiry(t);
      entry.renewAtMs = exp === null ? now() + OPAQUE_TOKEN_REUSE_MS : exp - RENEW_BEFORE_EXP_MS;
      return t;
    });
    const entry = { token, renewAtMs: Number.POSITIVE_INFINITY };
    // A failed command is not remembered: the next request runs it again.
    token.catch(() => cache.delete(key));
    cache.set(key, entry);
    return token;
  };
  return {
    async authorize(speaker: Speaker): Promise<Authorization> {
      if (speaker === null) return { headers: {}, caller: null };
      if ('token' in speaker)
        return { headers: { authorization: `Bearer ${speaker.token}` }, caller: { roles: [], tenant: null, note: 'token given as is' } };
      return { headers: { authorization: `Bearer ${await tokenFor(speaker)}` }, caller: summary(speaker) };
    },
  };
}

/** `Name: value` as a header; the value may hold colons. */
export function parseHeader(text: string): [string, string] {
  const at = text.indexOf(':');
  const name = at < 0 ? '' : text.slice(0, at).trim();
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
    throw new CredentialSourceError(`--header ${JSON.stringify(text)} is not "Name: value"; write it as --header 'X-Api-Key: secret'`);
  return [name.toLowerCase(), text.slice(at + 1).trim()];
}

/**
 * Static headers on every request that speaks as a caller. An anonymous
 * request stays anonymous: the cases that send no credentials must send none.
 * A static Authorization header replaces the caller's token.
 */
export function withStaticHeaders(base: Credentials, headers: ReadonlyArray<readonly [string, string]>): Credentials {
  if (headers.length === 0) return base;
  const fixed = Object.fromEntries(headers);
  return {
    async authorize(speaker) {
      if (speaker === null || 'token' in speaker) return base.authorize(speaker);
      if ('authorization' in fixed) return { headers: { ...fixed }, caller: { ...summary(speaker)!, note: 'static headers' } };
      const inner = await base.authorize(speaker);
      return { headers: { ...inner.headers, ...fixed }, caller: inner.caller };
    },
  };
}

/** How a run authenticates, as the command line gave it. */
export interface CredentialChoice {
  tokenCommand?: string | undefined;
  headers?: readonly string[] | undefined;
}

export function hasOwnCredentials(choice: CredentialChoice): boolean {
  return choice.tokenCommand !== undefined || (choice.headers ?? []).length > 0;
}

/**
 * The credentials of a run: the token command's tokens, else tokens minted
 * with the signing key (a minter, or credentials standing for one), else
 * none; plus the static headers.
 */
export function credentialsOf(choice: CredentialChoice, minted: TokenMinter | Credentials | null): Credentials {
  const headers = (choice.headers ?? []).map(parseHeader);
  const fallback = minted === null ? anonymous : 'authorize' in minted ? minted : mintedCredentials(minted);
  const base: Credentials = choice.tokenCommand !== undefined ? tokenCommandCredentials(choice.tokenCommand) : fallback;
  return withStaticHeaders(base, headers);
}
