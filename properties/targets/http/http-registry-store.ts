// The RegistryStore port over the HTTP binding (contract/openapi.yaml), so the
// property suites run unchanged against any implementation a vendor serves.
// It depends only on the wire contract: paths, bodies, roles and the error
// catalogue. Each call carries a token minted for exactly the role (and, for
// routing and catalog reads, the tenant) the operation needs.
import type { ScopeKind } from '../../../contract/errors.ts';
import type {
  AdmissionCounter,
  AdmissionPolicy,
  BatchItem,
  BatchResult,
  CapabilityBinding,
  CapabilityPage,
  CatalogContext,
  CatalogQuery,
  ConnectorInstance,
  ConnectorReplica,
  ConnectorType,
  ConnectorVersion,
  FleetStatus,
  HealthReport,
  LeaseExpiryResult,
  RegistryLimits,
  ReplicaProvision,
  ResolveRequest,
  ResolvedCapability,
  Role,
  RouteAssignment,
  RouteView,
  SettlementOutcome,
  SettlementResult,
  VersionAdmission,
  VersionInfo,
  VersionStatus,
  WriteResult,
} from '../../../contract/records.ts';
import type { OperationId } from '../../../contract/operations.ts';
import type { SigningKey } from '../../../contract/tokens.ts';
import { credentialsOf, type CredentialChoice } from '../../../client/credential-sources.ts';
import { HttpTransport, type OperationRequest } from '../../../client/http-transport.ts';
import { TokenMinter } from '../../../client/token-minter.ts';
import { answerLimitOf } from '../../../client/answer-limit.ts';
import { readVersionInfo, VersionUnavailable } from '../../../client/version.ts';
import { RegistryError } from '../../../contract/registry-error.ts';
import type { TargetStore } from '../target.ts';
import { operationEntry } from '../../../client/operation-path.ts';
import { classified, emptyTally, recorded, resolvedView, type CallFaults, type CallTally } from './call-outcomes.ts';
import { callOperation, TargetUnreachable } from './http-client.ts';

export interface HttpStoreOptions {
  url: string;
  /** Mints the tokens, unless `auth` brings its own; null when it does. */
  key: SigningKey | null;
  /** A token command or static headers instead of (or beside) minted tokens. */
  auth?: CredentialChoice;
  audience?: string;
  /** After this long a request's outcome is indeterminate. */
  requestTimeoutMs?: number;
  /** Parallel connections; the concurrency suite needs several. */
  connections?: number;
  /** Under a nemesis: how to tell unsent requests from lost answers, how long reads are resent, where ops are recorded. */
  faults?: CallFaults;
  /** Calls every request off (the stage's budget ran out): what is in flight ends indeterminate, nothing more is sent. */
  signal?: AbortSignal;
}

type Roles = readonly Role[];

export class HttpRegistryStore implements TargetStore {
  readonly limits: RegistryLimits;
  /** Every call's outcome: answered, surely not forwarded, or indeterminate. */
  readonly tally: CallTally = emptyTally();

  /** Reads answers up to the bound the declared limits give; `pool` owns the connections. */
  private readonly transport: HttpTransport;

  private constructor(
    private readonly pool: HttpTransport,
    private readonly timeoutMs: number,
    readonly version: VersionInfo,
    private readonly faults: CallFaults,
  ) {
    this.limits = version.limits;
    this.transport = pool.with({ answerLimitBytes: answerLimitOf(version.limits) });
  }

  /** Connects and reads GET /version, which also proves the URL serves the contract. */
  static async open(options: HttpStoreOptions): Promise<HttpRegistryStore> {
    const timeoutMs = options.requestTimeoutMs ?? 10_000;
    const minter = options.key ? new TokenMinter(options.key, { audience: options.audience }) : null;
    const transport = new HttpTransport({
      baseUrl: options.url,
      credentials: credentialsOf(options.auth ?? {}, minter),
      connections: options.connections ?? 32,
      timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    try {
      const { version } = await readVersionInfo(transport);
      if (!version.limits) throw new Error(`${transport.baseUrl}/version does not describe a fleetproof-registry implementation`);
      const faults = { ...options.faults, ...(options.signal ? { calledOff: options.signal } : {}) };
      return new HttpRegistryStore(transport, timeoutMs, version, faults);
    } catch (err) {
      await transport.close();
      if (err instanceof VersionUnavailable && err.unreachable)
        throw new TargetUnreachable(`GET /version: cannot reach the target (${err.message})`, { cause: err });
      throw err;
    }
  }

  private async call<T, K extends OperationId = OperationId>(op: K, req: OperationRequest<K>, roles: Roles, tenant?: string): Promise<T> {
    const read = operationEntry(op).method.toLowerCase() === 'get';
    const send = (requestId: string) =>
      callOperation(this.transport, this.timeoutMs, op, {
        ...req,
        headers: { ...req.headers, 'x-request-id': requestId },
        as: { roles, tenant },
      });
    return (await classified(this.faults, this.tally, read, send)) as T;
  }

  /** A read whose NOT_FOUND means "absent". */
  private async maybe<T, K extends OperationId = OperationId>(
    op: K,
    req: OperationRequest<K>,
    roles: Roles,
    tenant?: string,
  ): Promise<T | null> {
    try {
      return await this.call<T, K>(op, req, roles, tenant);
    } catch (err) {
      if (RegistryError.is(err) && err.code === 'NOT_FOUND') return null;
      throw err;
    }
  }

  private catalogToken(ctx: CatalogContext): [Roles, string | undefined, { unbound?: boolean }] {
    if (ctx.tenant_id !== null) return [[], ctx.tenant_id, {}];
    return ctx.allow_unbound ? [['registry:internal'], undefined, { unbound: true }] : [[], undefined, {}];
  }

  // ---- catalog -------------------------------------------------------------

  async getCapability(capabilityId: string, ctx: CatalogContext): Promise<ResolvedCapability | null> {
    const [roles, tenant, query] = this.catalogToken(ctx);
    return this.maybe('getCatalogCapability', { params: { capability_id: capabilityId }, query }, roles, tenant);
  }

  async queryCatalog(query: CatalogQuery, ctx: CatalogContext): Promise<CapabilityPage> {
    const [roles, tenant, unbound] = this.catalogToken(ctx);
    return this.call('queryCatalog', { query: { ...query, ...unbound } }, roles, tenant);
  }

  async catalogRevision(): Promise<number> {
    return (await this.fleetStatus()).catalog_revision;
  }

  // ---- routing ---------------------------------------------------------------

  resolve(tenantId: string, request: ResolveRequest): Promise<RouteView> {
    const call = () => this.call<RouteView>('resolveRoute', { body: request }, ['registry:dispatch'], tenantId);
    return recorded(this.faults.history, 'resolve', tenantId, request.action_id, call, resolvedView);
  }

  route(tenantId: string, actionId: string): Promise<RouteView | null> {
    return this.maybe('getRoute', { params: { action_id: actionId } }, ['registry:dispatch'], tenantId);
  }

  settle(tenantId: string, actionId: string, assignment: RouteAssignment, outcome: SettlementOutcome): Promise<SettlementResult> {
    const call = () =>
      this.call<SettlementResult>(
        'settleRoute',
        { params: { action_id: actionId }, body: { assignment, outcome } },
        ['registry:dispatch'],
        tenantId,
      );
    return recorded(this.faults.history, 'settle', tenantId, actionId, call, (r) => ({ released: r.released }));
  }

  // ---- reader ----------------------------------------------------------------

  getConnectorType(id: string): Promise<ConnectorType | null> {
    return this.maybe('getConnectorType', { params: { type_id: id } }, ['registry:reader']);
  }
  getVersion(id: string): Promise<ConnectorVersion | null> {
    return this.maybe('getVersion', { params: { version_id: id } }, ['registry:reader']);
  }
  getInstance(id: string): Promise<ConnectorInstance | null> {
    return this.maybe('getInstance', { params: { instance_id: id } }, ['registry:reader']);
  }
  getBinding(tenantId: string, capabilityId: string, instanceId: string): Promise<CapabilityBinding | null> {
    return this.maybe('getBinding', { params: { tenant_id: tenantId, capability_id: capabilityId, instance_id: instanceId } }, [
      'registry:reader',
    ]);
  }
  getAdmissionPolicy(policyRef: string): Promise<AdmissionPolicy | null> {
    return this.maybe('getAdmissionPolicy', { params: { policy_ref: policyRef } }, ['registry:reader']);
  }
  getReplica(id: string): Promise<ConnectorReplica | null> {
    return this.maybe('getReplica', { params: { replica_id: id } }, ['registry:reader']);
  }
  getAdmissionCounter(kind: ScopeKind, key: string): Promise<AdmissionCounter> {
    return this.call('getAdmissionCounter', { params: { kind, key } }, ['registry:reader']);
  }

  // ---- administration and lifecycle ---------------------------------------------

  private admin<T, K extends OperationId>(op: K, req: OperationRequest<K>): Promise<WriteResult<T>> {
    return this.call(op, req, ['registry:admin']);
  }

  putConnectorType(record: ConnectorType): Promise<WriteResult<ConnectorType>> {
    return this.admin('putConnectorType', { params: { type_id: record.id }, body: record });
  }
  setConnectorTypeEnabled(id: string, enabled: boolean): Promise<WriteResult<ConnectorType>> {
    return this.admin('setConnectorTypeEnabled', { params: { type_id: id }, body: { enabled } });
  }
  admitVersion(record: VersionAdmission): Promise<WriteResult<ConnectorVersion>> {
    return this.admin('admitVersion', { params: { version_id: record.id }, body: record });
  }
  setVersionStatus(id: string, status: VersionStatus): Promise<WriteResult<ConnectorVersion>> {
    return this.admin('setVersionStatus', { params: { version_id: id }, body: { status } });
  }
  putInstance(record: ConnectorInstance): Promise<WriteResult<ConnectorInstance>> {
    return this.admin('putInstance', { params: { instance_id: record.id }, body: record });
  }
  putBinding(record: CapabilityBinding): Promise<WriteResult<CapabilityBinding>> {
    return this.admin('putBinding', {
      params: { tenant_id: record.tenant_id, capability_id: record.capability_id, instance_id: record.instance_id },
      body: record,
    });
  }
  putAdmissionPolicy(record: AdmissionPolicy): Promise<WriteResult<AdmissionPolicy>> {
    return this.admin('putAdmissionPolicy', { params: { policy_ref: record.policy_ref }, body: record });
  }
  provisionReplica(record: ReplicaProvision): Promise<WriteResult<ConnectorReplica>> {
    return this.call('provisionReplica', { params: { replica_id: record.id }, body: record }, ['registry:lifecycle']);
  }
  reportHealth(id: string, report: HealthReport): Promise<WriteResult<ConnectorReplica>> {
    return this.call('reportHealth', { params: { replica_id: id }, body: report }, ['registry:lifecycle']);
  }
  applyBatch(items: BatchItem[]): Promise<BatchResult> {
    return this.call('applyBatch', { body: { items } }, ['registry:admin', 'registry:lifecycle']);
  }

  // ---- fleet -------------------------------------------------------------------

  expireLeases(limit: number): Promise<LeaseExpiryResult> {
    return this.call('expireLeases', { body: { limit } }, ['registry:operator']);
  }
  fleetStatus(): Promise<FleetStatus> {
    return this.call('getFleetStatus', {}, ['registry:operator']);
  }

  async ready(): Promise<boolean> {
    try {
      await callOperation(this.transport, this.timeoutMs, 'getReady', { as: null });
      return true;
    } catch {
      return false;
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
