// Any registry over HTTP as a property target. Every run gets its own
// namespace on the one server, and the suites observe the server's clock
// instead of driving it.
import { loadSigningKey, type SigningKey } from '../../contract/tokens.ts';
import type { CredentialChoice } from '../../client/credential-sources.ts';
import type { CallFaults } from './http/call-outcomes.ts';
import { HttpRegistryStore } from './http/http-registry-store.ts';
import { ServerClock } from './server-clock.ts';
import { freshNamespace, universeOf, type RunContext, type Target } from './target.ts';

export interface HttpTargetOptions {
  url: string;
  /** The private signing key, or the path of its JWK file; null when `auth` brings the tokens. */
  key: SigningKey | string | null;
  auth?: CredentialChoice;
  audience?: string;
  requestTimeoutMs?: number;
  /** The run these suites belong to: every record they create carries it. */
  runId?: string;
  /** Under a nemesis: see HttpStoreOptions. */
  faults?: CallFaults;
  /** Calls every request off (the stage's budget ran out). */
  signal?: AbortSignal;
}

export interface HttpTarget extends Target {
  readonly store: HttpRegistryStore;
}

export async function httpTarget(options: HttpTargetOptions): Promise<HttpTarget> {
  const key = typeof options.key === 'string' ? await loadSigningKey(options.key) : options.key;
  const store = await HttpRegistryStore.open({
    url: options.url,
    key,
    ...(options.auth ? { auth: options.auth } : {}),
    ...(options.audience !== undefined ? { audience: options.audience } : {}),
    ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  try {
    const clock = await ServerClock.calibrate(async () => (await store.fleetStatus()).observed_at);
    const impl = store.version.implementation;
    return {
      kind: 'http',
      description: `${options.url} (${impl.name} ${impl.version})`,
      manualClock: false,
      limits: store.limits,
      store,
      async openRun(): Promise<RunContext> {
        return {
          store,
          clock,
          u: universeOf(freshNamespace(options.runId), store.limits),
          shared: true,
          resendUnansweredMs: options.faults?.readRetryMs ?? 0,
          ...(options.signal ? { calledOff: options.signal } : {}),
          close: async () => {},
        };
      },
      close: () => store.close(),
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}
