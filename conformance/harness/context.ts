// What a case's run(ctx) receives: clients speaking as each role, run-scoped
// ids and fixtures, the target's declared limits and an estimate of its
// clock. Each case gets its own context and exchange log; nothing here is
// shared between cases except the run's token cache and connection pool.
import type { RegistryLimits, Role, VersionInfo } from '../../contract/records.ts';
import type { HttpTransport } from '../../client/http-transport.ts';
import { RegistryClient } from './client.ts';
import type { ServerClock } from './clock.ts';
import type { Exchange } from './exchange.ts';
import { build, Fixtures, type Builders } from './fixtures.ts';
import { Ids } from './ids.ts';
import type { RetirementLedger } from './retirement.ts';
import type { Caller, HarnessTokens } from './tokens.ts';

export interface RunScope {
  runId: string;
  /** The run's transport: one connection pool, speaking with the run's tokens. */
  transport: HttpTransport;
  tokens: HarnessTokens;
  version: VersionInfo;
  clock: ServerClock;
  ledger: RetirementLedger;
}

export interface CaseContext {
  readonly caseId: string;
  readonly runId: string;
  readonly ids: Ids;
  readonly build: Builders;
  readonly fx: Fixtures;
  readonly clock: ServerClock;
  /** The target's GET /version, read once at the start of the run. */
  readonly version: VersionInfo;
  readonly limits: RegistryLimits;
  readonly tokens: HarnessTokens;
  /** Speaks as each operation's own roles, without a tenant. */
  readonly api: RegistryClient;
  readonly admin: RegistryClient;
  readonly lifecycle: RegistryClient;
  readonly reader: RegistryClient;
  readonly operator: RegistryClient;
  /** No Authorization header at all. */
  readonly anonymous: RegistryClient;
  as(caller: Caller): RegistryClient;
  /** registry:dispatch with this tenant: resolve, read and settle routes. */
  dispatch(tenant: string): RegistryClient;
  /** A tenant's catalog reads (any valid token with the tenant claim). */
  catalogFor(tenant: string): RegistryClient;
  /** Aborted when the case times out. */
  readonly signal: AbortSignal;
  sleep(ms: number): Promise<void>;
}

export interface CaseHarness {
  ctx: CaseContext;
  /** Every exchange of the case, in order. */
  exchanges: Exchange[];
}

const role = (r: Role): Caller => ({ roles: [r] });

export function createCaseContext(scope: RunScope, caseId: string, signal: AbortSignal): CaseHarness {
  const exchanges: Exchange[] = [];
  const api = new RegistryClient({
    transport: scope.transport.with({ record: (e) => exchanges.push(e), signal }),
    onWrite: scope.ledger.observe,
  });
  const ids = new Ids(scope.runId, caseId);
  const dispatch = (tenant: string) => api.as({ roles: ['registry:dispatch'], tenant });
  const catalogFor = (tenant: string) => api.as({ roles: [], tenant });
  const admin = api.as(role('registry:admin'));
  const lifecycle = api.as(role('registry:lifecycle'));
  const reader = api.as(role('registry:reader'));
  const fx = new Fixtures(ids, { admin, lifecycle, reader, dispatch, catalogFor }, scope.clock, scope.version.limits);
  const ctx: CaseContext = {
    caseId,
    runId: scope.runId,
    ids,
    build,
    fx,
    clock: scope.clock,
    version: scope.version,
    limits: scope.version.limits,
    tokens: scope.tokens,
    api,
    admin,
    lifecycle,
    reader,
    operator: api.as(role('registry:operator')),
    anonymous: api.as(null),
    as: (caller) => api.as(caller),
    dispatch,
    catalogFor,
    signal,
    sleep: (ms) =>
      new Promise((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason);
        const timer = setTimeout(resolve, ms);
        signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
      }),
  };
  return { ctx, exchanges };
}
