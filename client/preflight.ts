// What every command that judges a registry checks before its first stage, in
// order: the target answers; GET /version is a VersionInfo of this contract
// version; the run's own credentials for each role it needs (the tokens it
// mints, or the vendor's token command and headers) are accepted; the
// target's clock is within the bound the run's time-sensitive steps need.
// A problem here is the setup's, not the registry's: the run ends with exit 2
// and one line that names the cause and the fix, and judges nothing.
import { dirname, join } from 'node:path';
import { CONTRACT_VERSION, ROLES, type Role, type VersionInfo } from '../contract/records.ts';
import { componentValidator, describeViolation } from '../contract/schemas.ts';
import { type SigningKey } from '../contract/tokens.ts';
import { DEFAULT_AUDIENCE, JWKS_FILE } from '../contract/token-defaults.ts';
import { mintToken } from './token-minter.ts';
import { credentialsOf, hasOwnCredentials, type CredentialChoice } from './credential-sources.ts';
import type { Credentials } from './credentials.ts';
import { AnswerTooLarge, HttpTransport, TransportError, type Received } from './http-transport.ts';
import { TokenMinter } from './token-minter.ts';
import { readVersionInfo, VersionUnavailable } from './version.ts';
import { FleetproofError } from './errors.ts';

/** One line: what is wrong and what to do about it. */
export class PreflightProblem extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_PREFLIGHT', message, options);
  }
}

/** Tokens the run will present, each with the roles it carries, and where the target learns to trust them. */
export interface TokenSource {
  kid: string;
  audience: string;
  /** The public JWK set to configure the target with. */
  trust: string;
  /** The line for a refused request, when the source is not a signing key the target must trust. */
  refused?: (roles: string) => string;
  /** One request's authentication per role: a bearer token, or the headers a credential source gives. */
  tokens(): Promise<Array<{ token?: string; headers?: Record<string, string>; roles: string; refused?: string }>>;
}

/** A dispatch token carries a tenant, as the run's do. */
const probeCaller = (role: Role) => ({ roles: [role], ...(role === 'registry:dispatch' ? { tenant: 'fleetproof-preflight' } : {}) });

/** How a run authenticates, for the line that names the fix when the target refuses it. */
export interface RunAuthentication {
  /** The vendor's own credentials (--token-cmd, --header), when the run brings them. */
  auth?: CredentialChoice | undefined;
  /** The signing key the target is said to trust, when there is one. */
  key?: SigningKey | null | undefined;
  keyPath?: string | null | undefined;
  audience?: string | undefined;
  /** The run signs tokens of its own with the key beside the vendor's credentials (conformance's bad tokens): the key must be trusted too. */
  signsWithKey?: boolean;
}

/**
 * The very credentials a run presents, asked once per role as the run asks
 * them: what the preflight accepts is what runs. With the vendor's own
 * credentials a refusal names them; with minted tokens it names the key and
 * where the target learns to trust it. When the run brings its own
 * credentials and signs tokens with a key besides (the tokens only the key
 * can sign), a token minted with the key is checked too: a key the target
 * does not trust would make every token it signs refused for the wrong reason.
 */
export function credentialSource(credentials: Credentials, how: RunAuthentication, roles: readonly Role[] = ALL_ROLES): TokenSource {
  const audience = how.audience ?? DEFAULT_AUDIENCE;
  const key = how.key ?? null;
  const trust = how.keyPath ? join(dirname(how.keyPath), JWKS_FILE) : 'the public JWK set of the signing key';
  const own = how.auth !== undefined && hasOwnCredentials(how.auth);
  if (!own && !key) throw new PreflightProblem('no signing key and no --token-cmd or --header: give --key, or bring your own credentials');
  const given = how.auth?.tokenCommand !== undefined ? 'the token command (--token-cmd)' : 'the headers given (--header)';
  const keyRefused = key
    ? `the target refused a token signed with kid=${key.kid} by --key, while it accepts ${given}: configure it to trust ${trust} (audience ${audience}), or leave --key out (the cases that need it then skip)`
    : '';
  return {
    kid: key?.kid ?? 'none',
    audience,
    trust: own ? given : trust,
    ...(own
      ? {
          refused: (r: string) =>
            `the target refused the credentials of ${given} (role ${r}): make them valid for the target (audience ${audience}, the role in scope)`,
        }
      : {}),
    tokens: async () => {
      const presented = await Promise.all(
        roles.map(async (role) => ({ roles: role, headers: (await credentials.authorize(probeCaller(role))).headers })),
      );
      if (!own || !key || !how.signsWithKey) return presented;
      const minted = await mintToken({ key, roles: ['registry:reader'], audience });
      return [...presented, { roles: 'registry:reader', headers: { authorization: `Bearer ${minted}` }, refused: keyRefused }];
    },
  };
}

/**
 * What the preflight presents for a run whose credentials are built
 * elsewhere from the same choice: the token command's tokens or the static
 * headers when the run brings its own (--token-cmd, --header), else tokens
 * minted from the key.
 */
export function runTokens(
  auth: CredentialChoice | undefined,
  key: SigningKey | null,
  options: { keyPath?: string | undefined; audience?: string | undefined } = {},
): TokenSource {
  const minter = key ? new TokenMinter(key, { audience: options.audience }) : null;
  return credentialSource(credentialsOf(auth ?? {}, minter), { auth, key, ...options });
}

/** Tokens minted earlier (a distributed run's shared plan). */
export function givenTokens(tokens: readonly string[], trust: string): TokenSource {
  const claims = (token: string, part: 0 | 1) => {
    try {
      return JSON.parse(Buffer.from(token.split('.')[part] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      return {};
    }
  };
  const first = tokens[0] ?? '';
  const aud = claims(first, 1)['aud'];
  return {
    kid: String(claims(first, 0)['kid'] ?? 'none'),
    audience: String(Array.isArray(aud) ? aud.join(' ') : (aud ?? DEFAULT_AUDIENCE)),
    trust,
    tokens: async () => tokens.map((token) => ({ token, roles: String(claims(token, 1)['scope'] ?? '') })),
  };
}

export interface PreflightOptions {
  target: string;
  credentials: TokenSource;
  /** How far the target's clock may be from this machine's for the run to judge time. */
  maxClockOffsetMs: number;
  timeoutMs?: number;
  /** Calls the checks off (the stage's budget ran out). */
  signal?: AbortSignal;
}

export interface PreflightResult {
  version: VersionInfo;
  /** Target time minus local time, good to about a second (the Date header has whole seconds). */
  clockOffsetMs: number;
}

/**
 * Clock bounds by what the run does with time. Conformance and the property
 * suites place time on the target's own clock and only mint tokens (hours of
 * life) on this one; the load flows stamp leases on this machine's clock.
 */
export const CLOCK_BOUND_MS = { tokens: 10 * 60_000, leases: 30_000 } as const;

/** Every role: conformance and certification exercise all of them. */
export const ALL_ROLES: readonly Role[] = ROLES;

/** A read every role may be refused (403) or answered (404) on, but only an untrusted token gets 401. */
const PROBE_PATH = '/v1/connector-types/ctype_fleetproof-preflight-probe';

/** Anonymous: each probe carries the token or the headers its TokenSource gave. */
async function withTransport<T>(
  base: string,
  timeoutMs: number,
  use: (transport: HttpTransport) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  let transport: HttpTransport;
  try {
    transport = new HttpTransport({ baseUrl: base, timeoutMs, ...(signal ? { signal } : {}) });
  } catch (err) {
    throw noAnswer(base, err);
  }
  try {
    return await use(transport);
  } finally {
    await transport.close();
  }
}

function errorCode(text: string): string {
  try {
    const code = (JSON.parse(text) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? ` ${code}` : '';
  } catch {
    return '';
  }
}

/** What stopped a request: past its deadline, else the code of the failure under the transport's error (ECONNREFUSED), else its message. */
function cause(err: unknown): string {
  if (TransportError.is(err) && err.failure === 'timeout') return err.message;
  const e = (TransportError.is(err) ? err.cause : err) as { code?: string; cause?: { code?: string }; message?: string };
  return e.code ?? e.cause?.code ?? e.message ?? String(err);
}

/** GET /version as the target answered it, whatever it holds; versionInfo judges that. */
async function answers(base: string, transport: HttpTransport): Promise<Received> {
  try {
    return (await readVersionInfo(transport)).received;
  } catch (err) {
    if (err instanceof VersionUnavailable && err.received) return err.received;
    // An answer too large to read is an answer: its own error says how large.
    if (err instanceof AnswerTooLarge) throw err;
    throw noAnswer(base, err instanceof VersionUnavailable ? err.cause : err);
  }
}

function noAnswer(base: string, err: unknown): PreflightProblem {
  // Something took the connection and kept it without answering: it is running, so starting it is no advice.
  const advice =
    TransportError.is(err) && err.failure === 'timeout'
      ? "check that --target is the registry's base URL and that the registry is not stalled"
      : 'start it, or point --target at its base URL';
  return new PreflightProblem(`the target ${base} does not answer (${cause(err)}): ${advice}`);
}

function versionInfo(base: string, reply: Received): VersionInfo {
  if (reply.status !== 200)
    throw new PreflightProblem(
      `GET ${base}/version answered ${reply.status}${errorCode(reply.text)}: point --target at the registry's base URL, where /version serves its VersionInfo [ops-version]`,
    );
  let body: unknown;
  try {
    body = JSON.parse(reply.text);
  } catch {
    throw new PreflightProblem(
      `GET ${base}/version is not JSON: point --target at the registry's base URL, where /version serves its VersionInfo [ops-version]`,
    );
  }
  const validate = componentValidator('VersionInfo');
  if (!validate(body))
    throw new PreflightProblem(
      `GET ${base}/version is not a VersionInfo (${describeViolation(validate.errors).message}): fix the target's /version [ops-version]`,
    );
  const version = body as VersionInfo;
  if (version.contract !== CONTRACT_VERSION)
    throw new PreflightProblem(
      `the target implements ${String(version.contract)}, this harness judges ${CONTRACT_VERSION}: use a harness for ${String(version.contract)}, or a target that implements ${CONTRACT_VERSION}`,
    );
  return version;
}

async function tokensAccepted(transport: HttpTransport, credentials: TokenSource): Promise<void> {
  for (const { token, headers, roles, refused } of await credentials.tokens()) {
    let reply: Received;
    try {
      reply = await transport.send({ method: 'GET', path: PROBE_PATH, as: token ? { token } : null, headers });
    } catch (err) {
      if (err instanceof AnswerTooLarge) throw err;
      throw new PreflightProblem(
        `the target stopped answering an authenticated read (${cause(err)}): check that it is up and not overloaded`,
      );
    }
    if (reply.status === 401 && refused) throw new PreflightProblem(refused);
    if (reply.status === 401 && credentials.refused) throw new PreflightProblem(credentials.refused(roles));
    if (reply.status === 401)
      throw new PreflightProblem(
        `the target refused a token signed with kid=${credentials.kid} (role ${roles}): configure it to trust ${credentials.trust} (audience ${credentials.audience})`,
      );
    if (reply.status >= 500)
      throw new PreflightProblem(
        `the target answered ${reply.status}${errorCode(reply.text)} to an authenticated read: make it ready (GET /ready answers 200) before the run`,
      );
    if (reply.status !== 403 && reply.status !== 404)
      throw new PreflightProblem(
        `GET ${PROBE_PATH} with a ${roles} token answered ${reply.status}${errorCode(reply.text)}, not 403 or 404: the target's authentication is not the contract's [auth-roles]`,
      );
  }
}

function clockOffset(reply: Received, sentMs: number, receivedMs: number): number | null {
  const date = reply.headers['date'];
  const ms = typeof date === 'string' ? Date.parse(date) : Number.NaN;
  // Whole seconds: the server's instant lies in [date, date + 1 s).
  return Number.isFinite(ms) ? Math.round(ms + 500 - (sentMs + receivedMs) / 2) : null;
}

/**
 * Mid-run: does the target still answer as a registry (GET /version a
 * VersionInfo of this contract), and still accept the tokens it accepted at
 * preflight? The line naming the problem, or null when it does.
 * A stage asks this when something went wrong, to tell a fault of the setup
 * (no verdict) from a defect of the registry.
 */
export async function recheck(options: Omit<PreflightOptions, 'maxClockOffsetMs'>): Promise<string | null> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const base = options.target.replace(/\/+$/, '');
  try {
    await withTransport(base, timeoutMs, async (transport) => {
      // The registry itself, not something in front of it that answers every path (a gateway's 403, a default backend's 404).
      versionInfo(base, await answers(base, transport));
      await tokensAccepted(transport, options.credentials);
    });
    return null;
  } catch (err) {
    if (err instanceof PreflightProblem) return err.message;
    throw err;
  }
}

/** recheck, asked at most once per interval however many callers wonder at once. */
export function sharedRecheck(options: Omit<PreflightOptions, 'maxClockOffsetMs'>, intervalMs = 2000): () => Promise<string | null> {
  let last: { at: number; answer: Promise<string | null> } | null = null;
  return () => {
    if (!last || Date.now() - last.at > intervalMs) last = { at: Date.now(), answer: recheck(options) };
    return last.answer;
  };
}

/**
 * The first two checks alone: the target answers and serves a VersionInfo of
 * this contract. A run reads the limits it sizes by from it before it can
 * mint the tokens the rest of the preflight checks.
 */
export async function targetVersionInfo(target: string, timeoutMs = 10_000): Promise<VersionInfo> {
  const base = target.replace(/\/+$/, '');
  return versionInfo(base, await withTransport(base, timeoutMs, (transport) => answers(base, transport)));
}

export async function preflight(options: PreflightOptions): Promise<PreflightResult> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const base = options.target.replace(/\/+$/, '');
  const { reply, version, sent, received } = await withTransport(
    base,
    timeoutMs,
    async (transport) => {
      const sent = Date.now();
      const reply = await answers(base, transport);
      const received = Date.now();
      const version = versionInfo(base, reply);
      await tokensAccepted(transport, options.credentials);
      return { reply, version, sent, received };
    },
    options.signal,
  );
  const offset = clockOffset(reply, sent, received);
  if (offset === null)
    throw new PreflightProblem(
      `GET ${base}/version carries no Date header, so the run cannot place time on the target's clock: make the server send Date (RFC 9110)`,
    );
  // The Date header is good to a second and a round trip; only what is surely beyond the bound is refused.
  const margin = 1000 + (received - sent);
  if (Math.abs(offset) > options.maxClockOffsetMs + margin) {
    const side = offset > 0 ? 'ahead of' : 'behind';
    throw new PreflightProblem(
      `the target's clock is ${Math.round(Math.abs(offset) / 1000)} s ${side} this machine's, beyond the ${options.maxClockOffsetMs / 1000} s this run allows: synchronise both clocks (NTP)`,
    );
  }
  return { version, clockOffsetMs: offset };
}
