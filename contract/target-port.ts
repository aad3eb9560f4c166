// The port every registry is tested through: the five contracts of the
// registry (catalog, action target resolver, reader, administrator, fleet
// status) plus its limits and lifecycle. The reference's stores implement it
// in-process, the property suites' HTTP adapter implements it over the wire,
// and the suites know nothing else.
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
  RouteAssignment,
  RouteView,
  SettlementOutcome,
  SettlementResult,
  VersionAdmission,
  VersionStatus,
  WriteResult,
} from './records.ts';
import type { ScopeKind } from './errors.ts';

export interface CapabilityCatalog {
  /** [catalog-get]: null when not visible in this context. */
  getCapability(capabilityId: string, ctx: CatalogContext): Promise<ResolvedCapability | null>;
  queryCatalog(query: CatalogQuery, ctx: CatalogContext): Promise<CapabilityPage>;
}

export interface ActionTargetResolver {
  /** Creates or returns the action's assignment, holding a reservation. */
  resolve(tenantId: string, request: ResolveRequest): Promise<RouteView>;
  /** null when the action was never routed or belongs to another tenant. */
  route(tenantId: string, actionId: string): Promise<RouteView | null>;
  settle(tenantId: string, actionId: string, assignment: RouteAssignment, outcome: SettlementOutcome): Promise<SettlementResult>;
}

export interface RegistryReader {
  getConnectorType(id: string): Promise<ConnectorType | null>;
  getVersion(id: string): Promise<ConnectorVersion | null>;
  getInstance(id: string): Promise<ConnectorInstance | null>;
  getBinding(tenantId: string, capabilityId: string, instanceId: string): Promise<CapabilityBinding | null>;
  getAdmissionPolicy(policyRef: string): Promise<AdmissionPolicy | null>;
  getReplica(id: string): Promise<ConnectorReplica | null>;
  getAdmissionCounter(kind: ScopeKind, key: string): Promise<AdmissionCounter>;
}

export interface RegistryAdministrator {
  putConnectorType(record: ConnectorType): Promise<WriteResult<ConnectorType>>;
  setConnectorTypeEnabled(id: string, enabled: boolean): Promise<WriteResult<ConnectorType>>;
  admitVersion(record: VersionAdmission): Promise<WriteResult<ConnectorVersion>>;
  setVersionStatus(id: string, status: VersionStatus): Promise<WriteResult<ConnectorVersion>>;
  putInstance(record: ConnectorInstance): Promise<WriteResult<ConnectorInstance>>;
  putBinding(record: CapabilityBinding): Promise<WriteResult<CapabilityBinding>>;
  putAdmissionPolicy(record: AdmissionPolicy): Promise<WriteResult<AdmissionPolicy>>;
  provisionReplica(record: ReplicaProvision): Promise<WriteResult<ConnectorReplica>>;
  reportHealth(id: string, report: HealthReport): Promise<WriteResult<ConnectorReplica>>;
  /** [batch-items]: items apply in order; a rejected item stops nothing. */
  applyBatch(items: BatchItem[]): Promise<BatchResult>;
}

export interface FleetStatusProvider {
  expireLeases(limit: number): Promise<LeaseExpiryResult>;
  fleetStatus(): Promise<FleetStatus>;
}

/** Everything a suite may ask of a registry under test, in-process or over HTTP. */
export interface RegistryPort extends CapabilityCatalog, ActionTargetResolver, RegistryReader, RegistryAdministrator, FleetStatusProvider {
  readonly limits: RegistryLimits;
  catalogRevision(): Promise<number>;
  /** Whether the registry can serve reads and writes now (GET /ready). */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}
