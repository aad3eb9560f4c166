// The RegistryStore port over the HTTP binding (contract/openapi.yaml), so the
// property suites run unchanged against any implementation a vendor serves.
// It depends only on the wire contract: paths, bodies, roles and the error
// catalogue. Each call carries a token minted for exactly the role (and, for
// routing and catalog reads, the tenant) the operation needs.
import { Agent } from 'undici';
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
import type { SigningKey } from '../../../contract/tokens.ts';
import { RegistryError } from '../../../contract/registry-error.ts';
import type { TargetStore } from '../target.ts';
import { exchange, type HttpCall } from './http-client.ts';
import { TokenMinter } from './token-minter.ts';

export interface HttpStoreOptions {
  url: string;
  key: SigningKey;
  audience?: string;
  /** After this long a request's outcome is indeterminate. */
  requestTimeoutMs?: number;
  /** Parallel connections; the concurrency suite needs several. */
  connections?: number;
}

const seg = encodeURIComponent;

export class HttpRegistryStore implements TargetStore {
  readonly limits: RegistryLimits;
  private readonly tokens: TokenMinter;

  private constructor(
    private readonly base: string,
    private readonly agent: Agent,
    private readonly timeoutMs: number,
    key: SigningKey,
    audience: string | undefined,
    readonly version: VersionInfo,
  ) {
    this.limits = version.limits;
    this.tokens = new TokenMinter(key, audience);
  }

  /** Connects and reads GET /version, which also proves the URL serves the contract. */
  static async open(options: HttpStoreOptions): Promise<HttpRegistryStore> {
    const base = options.url.replace(/\/+$/, '');
    const agent = new Agent({ connections: options.connections ?? 32, keepAliveTimeout: 10_000 });
    const timeoutMs = options.requestTimeoutMs ?? 10_000;
    try {
      const version = (await exchange(base, agent, timeoutMs, { method: 'GET', path: '/version' })) as VersionInfo;
      if (!version?.limits) throw new Error(`${base}/version does not describe a fleetproof-registry implementation`);
      return new HttpRegistryStore(base, agent, timeoutMs, options.key, options.audience, version);
    } catch (err) {
      await agent.close();
      throw err;
    }
  }

  private async call<T>(call: Omit<HttpCall, 'token'>, roles: readonly Role[], tenant?: string): Promise<T> {
    const token = await this.tokens.token(roles, tenant);
    return (await exchange(this.base, this.agent, this.timeoutMs, { ...call, token })) as T;
  }

  /** A read whose NOT_FOUND means "absent". */
  private async maybe<T>(path: string, roles: readonly Role[], tenant?: string): Promise<T | null> {
    try {
      return await this.call<T>({ method: 'GET', path }, roles, tenant);
    } catch (err) {
      if (RegistryError.is(err) && err.code === 'NOT_FOUND') return null;
      throw err;
    }
  }

  private catalogToken(ctx: CatalogContext): [readonly Role[], string | undefined, string] {
    if (ctx.tenant_id !== null) return [[], ctx.tenant_id, ''];
    return ctx.allow_unbound ? [['registry:internal'], undefined, 'unbound=true'] : [[], undefined, ''];
  }

  // ---- catalog -------------------------------------------------------------

  async getCapability(capabilityId: string, ctx: CatalogContext): Promise<ResolvedCapability | null> {
    const [roles, tenant, query] = this.catalogToken(ctx);
    return this.maybe(`/v1/catalog/${seg(capabilityId)}${query ? `?${query}` : ''}`, roles, tenant);
  }

  async queryCatalog(query: CatalogQuery, ctx: CatalogContext): Promise<CapabilityPage> {
    const [roles, tenant, unbound] = this.catalogToken(ctx);
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
    if (unbound) params.set('unbound', 'true');
    const qs = params.toString();
    return this.call({ method: 'GET', path: `/v1/catalog${qs ? `?${qs}` : ''}` }, roles, tenant);
  }

  async catalogRevision(): Promise<number> {
    return (await this.fleetStatus()).catalog_revision;
  }

  // ---- routing ---------------------------------------------------------------

  resolve(tenantId: string, request: ResolveRequest): Promise<RouteView> {
    return this.call({ method: 'POST', path: '/v1/routes', body: request }, ['registry:dispatch'], tenantId);
  }

  route(tenantId: string, actionId: string): Promise<RouteView | null> {
    return this.maybe(`/v1/routes/${seg(actionId)}`, ['registry:dispatch'], tenantId);
  }

  settle(tenantId: string, actionId: string, assignment: RouteAssignment, outcome: SettlementOutcome): Promise<SettlementResult> {
    return this.call({ method: 'POST', path: `/v1/routes/${seg(actionId)}/settlement`, body: { assignment, outcome } }, ['registry:dispatch'], tenantId);
  }

  // ---- reader ----------------------------------------------------------------

  getConnectorType(id: string): Promise<ConnectorType | null> {
    return this.maybe(`/v1/connector-types/${seg(id)}`, ['registry:reader']);
  }
  getVersion(id: string): Promise<ConnectorVersion | null> {
    return this.maybe(`/v1/versions/${seg(id)}`, ['registry:reader']);
  }
  getInstance(id: string): Promise<ConnectorInstance | null> {
    return this.maybe(`/v1/instances/${seg(id)}`, ['registry:reader']);
  }
  getBinding(tenantId: string, capabilityId: string, instanceId: string): Promise<CapabilityBinding | null> {
    return this.maybe(`/v1/bindings/${seg(tenantId)}/${seg(capabilityId)}/${seg(instanceId)}`, ['registry:reader']);
  }
  getAdmissionPolicy(policyRef: string): Promise<AdmissionPolicy | null> {
    return this.maybe(`/v1/admission-policies/${seg(policyRef)}`, ['registry:reader']);
  }
  getReplica(id: string): Promise<ConnectorReplica | null> {
    return this.maybe(`/v1/replicas/${seg(id)}`, ['registry:reader']);
  }
  getAdmissionCounter(kind: ScopeKind, key: string): Promise<AdmissionCounter> {
    return this.call({ method: 'GET', path: `/v1/admission-counters/${seg(kind)}/${seg(key)}` }, ['registry:reader']);
  }

  // ---- administration and lifecycle ---------------------------------------------

  private admin<T>(path: string, body: unknown): Promise<WriteResult<T>> {
    return this.call({ method: 'PUT', path, body }, ['registry:admin']);
  }

  putConnectorType(record: ConnectorType): Promise<WriteResult<ConnectorType>> {
    return this.admin(`/v1/connector-types/${seg(record.id)}`, record);
  }
  setConnectorTypeEnabled(id: string, enabled: boolean): Promise<WriteResult<ConnectorType>> {
    return this.admin(`/v1/connector-types/${seg(id)}/enabled`, { enabled });
  }
  admitVersion(record: VersionAdmission): Promise<WriteResult<ConnectorVersion>> {
    return this.admin(`/v1/versions/${seg(record.id)}`, record);
  }
  setVersionStatus(id: string, status: VersionStatus): Promise<WriteResult<ConnectorVersion>> {
    return this.admin(`/v1/versions/${seg(id)}/status`, { status });
  }
  putInstance(record: ConnectorInstance): Promise<WriteResult<ConnectorInstance>> {
    return this.admin(`/v1/instances/${seg(record.id)}`, record);
  }
  putBinding(record: CapabilityBinding): Promise<WriteResult<CapabilityBinding>> {
    return this.admin(`/v1/bindings/${seg(record.tenant_id)}/${seg(record.capability_id)}/${seg(record.instance_id)}`, record);
  }
  putAdmissionPolicy(record: AdmissionPolicy): Promise<WriteResult<AdmissionPolicy>> {
    return this.admin(`/v1/admission-policies/${seg(record.policy_ref)}`, record);
  }
  provisionReplica(record: ReplicaProvision): Promise<WriteResult<ConnectorReplica>> {
    return this.call({ method: 'PUT', path: `/v1/replicas/${seg(record.id)}`, body: record }, ['registry:lifecycle']);
  }
  reportHealth(id: string, report: HealthReport): Promise<WriteResult<ConnectorReplica>> {
    return this.call({ method: 'POST', path: `/v1/replicas/${seg(id)}/health`, body: report }, ['registry:lifecycle']);
  }
  applyBatch(items: BatchItem[]): Promise<BatchResult> {
    return this.call({ method: 'POST', path: '/v1/batch', body: { items } }, ['registry:admin', 'registry:lifecycle']);
  }

  // ---- fleet -------------------------------------------------------------------

  expireLeases(limit: number): Promise<LeaseExpiryResult> {
    return this.call({ method: 'POST', path: '/v1/fleet/lease-expiry', body: { limit } }, ['registry:operator']);
  }
  fleetStatus(): Promise<FleetStatus> {
    return this.call({ method: 'GET', path: '/v1/fleet/status' }, ['registry:operator']);
  }

  async ready(): Promise<boolean> {
    try {
      await exchange(this.base, this.agent, this.timeoutMs, { method: 'GET', path: '/ready' });
      return true;
    } catch {
      return false;
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
