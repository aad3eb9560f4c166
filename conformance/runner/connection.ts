// What every request of a conformance run stands on: the credentials (a
// signing key, a token command, headers), the preflight that checks the
// target takes them, the transport bounded by the target's declared limits,
// and the target's clock. A run opens it before its cases; `conform
// --retire` opens it to retire what a run kept.
import { CLOCK_BOUND_MS, credentialSource, preflight } from '../../client/preflight.ts';
import type { FleetStatus, VersionInfo } from '../../contract/records.ts';
import { loadSigningKey, type SigningKey } from '../../contract/tokens.ts';
import { CredentialSourceError, hasOwnCredentials, type CredentialChoice } from '../../client/credential-sources.ts';
import { HttpTransport } from '../../client/http-transport.ts';
import { answerLimitOf } from '../../client/answer-limit.ts';
import { FleetproofError } from '../../client/errors.ts';
import { RegistryClient } from '../harness/client.ts';
import { clockFrom, ServerClock } from '../harness/clock.ts';
import { HarnessTokens } from '../harness/tokens.ts';
import type { ConformConfig } from './config.ts';

export class CouldNotRun extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_COULD_NOT_RUN', message, options);
  }
}

/** Why --header alone cannot carry a conformance run. */
export const ONE_CALLER =
  '--header alone makes every request the same caller, but the cases speak as many tenants and roles: add --token-cmd (a token for {tenant} and {roles}) or --key';

async function measureClock(operator: RegistryClient, dateOffsetMs: number): Promise<ServerClock> {
  const sent = Date.now();
  try {
    const reply = await operator.call('getFleetStatus');
    if (reply.status === 200)
      return clockFrom((reply.json as FleetStatus).observed_at, sent, Date.now(), 'GET /v1/fleet/status observed_at');
  } catch {
    // fall back to the Date header below
  }
  // The Date header has whole seconds: the offset is good to about a second, enough for leases of minutes.
  return new ServerClock(dateOffsetMs, 'Date header of GET /version', 1000);
}

/** The run's credentials and transport, checked by the preflight, and the target's clock: what every request of a run stands on. */
interface Connection {
  key: SigningKey | null;
  auth: CredentialChoice;
  tokens: HarnessTokens;
  transport: HttpTransport;
  credentials: ReturnType<typeof credentialSource>;
  version: VersionInfo;
  clock: ServerClock;
  answerLimitBytes: number;
}

/**
 * Opens the run's connection to the target; CouldNotRun when it cannot (no
 * key, no credentials, a failed preflight). The preflight and the
 * transport's own requests stop with `signal` (the stage's budget).
 */
export async function connect(
  config: ConformConfig,
  options: { signingKey?: SigningKey | undefined; auth?: CredentialChoice | undefined },
  signal: AbortSignal,
): Promise<Connection> {
  const auth = options.auth ?? {};
  let key: SigningKey | null = options.signingKey ?? null;
  if (!key && config.keyFile !== null) {
    try {
      key = await loadSigningKey(config.keyFile);
    } catch (err) {
      throw new CredentialSourceError(`signing key: ${(err as Error).message}`, { cause: err });
    }
  }
  if (!key && !hasOwnCredentials(auth))
    throw new CouldNotRun('no signing key and no credentials of your own: give --key FILE (or FLEETPROOF_KEY), or --token-cmd / --header');
  // The cases speak as many tenants and roles; static headers alone would make every request the same caller.
  if (!key && auth.tokenCommand === undefined) throw new CouldNotRun(ONE_CALLER);
  // One token source for the run: its requests, its preflight and its mid-run rechecks present the same credentials.
  const tokens = new HarnessTokens(key, config.audience, auth);
  const credentials = credentialSource(tokens.credentials, {
    auth,
    key,
    keyPath: config.keyFile,
    audience: config.audience,
    signsWithKey: true,
  });
  const { version, clockOffsetMs } = await preflight({
    target: config.target,
    credentials,
    maxClockOffsetMs: CLOCK_BOUND_MS.tokens,
    timeoutMs: config.timeoutMs,
    signal,
  });
  const answerLimitBytes = answerLimitOf(version.limits);
  const transport = new HttpTransport({
    baseUrl: config.target,
    credentials: tokens.credentials,
    connections: 256,
    timeoutMs: config.timeoutMs,
    answerLimitBytes,
    // The stage's own requests (the clock reading) stop with its budget; each case's stop with the case.
    signal,
  });
  try {
    const clock = await measureClock(new RegistryClient({ transport }, { roles: ['registry:operator'] }), clockOffsetMs);
    return { key, auth, tokens, transport, credentials, version, clock, answerLimitBytes };
  } catch (err) {
    await transport.close();
    throw err;
  }
}
