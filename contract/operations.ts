// The operations of openapi.yaml as TypeScript types, so a request that sends
// `putInstance` a binding does not compile. The shapes come from records.ts;
// conformance/test/operations.test.ts checks that this table names exactly
// the operations, path parameters and query parameters of openapi.yaml, so
// the two cannot drift apart.
import type { ScopeKind } from './errors.ts';
import type {
  AdmissionCounter,
  AdmissionPolicy,
  BatchItem,
  BatchResult,
  CapabilityBinding,
  CapabilityPage,
  CatalogQuery,
  ConnectorInstance,
  ConnectorReplica,
  ConnectorType,
  ConnectorVersion,
  FleetStatus,
  HealthReport,
  LeaseExpiryResult,
  ReplicaProvision,
  ResolveRequest,
  ResolvedCapability,
  RouteAssignment,
  RouteView,
  SettlementOutcome,
  SettlementResult,
  VersionAdmission,
  VersionInfo,
  VersionStatus,
  WriteResult,
} from './records.ts';

type None = Record<never, never>;

interface Op<P, Q, B, R> {
  params: P;
  query: Q;
  body: B;
  ok: R;
}

export interface Operations {
  getHealth: Op<None, None, never, { status: 'ok' }>;
  getReady: Op<None, None, never, { status: 'ready' | 'not_ready'; detail?: string }>;
  getVersionInfo: Op<None, None, never, VersionInfo>;
  getOpenApi: Op<None, None, never, Record<string, unknown>>;
  getMetrics: Op<None, None, never, string>;
  putConnectorType: Op<{ type_id: string }, None, ConnectorType, WriteResult<ConnectorType>>;
  getConnectorType: Op<{ type_id: string }, None, never, ConnectorType>;
  setConnectorTypeEnabled: Op<{ type_id: string }, None, { enabled: boolean }, WriteResult<ConnectorType>>;
  admitVersion: Op<{ version_id: string }, None, VersionAdmission, WriteResult<ConnectorVersion>>;
  getVersion: Op<{ version_id: string }, None, never, ConnectorVersion>;
  setVersionStatus: Op<{ version_id: string }, None, { status: VersionStatus }, WriteResult<ConnectorVersion>>;
  putInstance: Op<{ instance_id: string }, None, ConnectorInstance, WriteResult<ConnectorInstance>>;
  getInstance: Op<{ instance_id: string }, None, never, ConnectorInstance>;
  putBinding: Op<
    { tenant_id: string; capability_id: string; instance_id: string },
    None,
    CapabilityBinding,
    WriteResult<CapabilityBinding>
  >;
  getBinding: Op<{ tenant_id: string; capability_id: string; instance_id: string }, None, never, CapabilityBinding>;
  putAdmissionPolicy: Op<{ policy_ref: string }, None, AdmissionPolicy, WriteResult<AdmissionPolicy>>;
  getAdmissionPolicy: Op<{ policy_ref: string }, None, never, AdmissionPolicy>;
  getAdmissionCounter: Op<{ kind: ScopeKind; key: string }, None, never, AdmissionCounter>;
  provisionReplica: Op<{ replica_id: string }, None, ReplicaProvision, WriteResult<ConnectorReplica>>;
  getReplica: Op<{ replica_id: string }, None, never, ConnectorReplica>;
  reportHealth: Op<{ replica_id: string }, None, HealthReport, WriteResult<ConnectorReplica>>;
  applyBatch: Op<None, None, { items: BatchItem[] }, BatchResult>;
  queryCatalog: Op<None, CatalogQuery & { unbound?: boolean }, never, CapabilityPage>;
  getCatalogCapability: Op<{ capability_id: string }, { unbound?: boolean }, never, ResolvedCapability>;
  resolveRoute: Op<None, None, ResolveRequest, RouteView>;
  getRoute: Op<{ action_id: string }, None, never, RouteView>;
  settleRoute: Op<{ action_id: string }, None, { assignment: RouteAssignment; outcome: SettlementOutcome }, SettlementResult>;
  getFleetStatus: Op<None, None, never, FleetStatus>;
  expireLeases: Op<None, None, { limit: number }, LeaseExpiryResult>;
}

export type OperationId = keyof Operations;
export type ParamsOf<K extends OperationId> = Operations[K]['params'];
export type QueryOf<K extends OperationId> = Operations[K]['query'];
export type BodyOf<K extends OperationId> = Operations[K]['body'];
export type OkOf<K extends OperationId> = Operations[K]['ok'];

/** Every operation id of the table, for the drift test and for sweeps over all operations. */
export const OPERATION_IDS: readonly OperationId[] = [
  'getHealth',
  'getReady',
  'getVersionInfo',
  'getOpenApi',
  'getMetrics',
  'putConnectorType',
  'getConnectorType',
  'setConnectorTypeEnabled',
  'admitVersion',
  'getVersion',
  'setVersionStatus',
  'putInstance',
  'getInstance',
  'putBinding',
  'getBinding',
  'putAdmissionPolicy',
  'getAdmissionPolicy',
  'getAdmissionCounter',
  'provisionReplica',
  'getReplica',
  'reportHealth',
  'applyBatch',
  'queryCatalog',
  'getCatalogCapability',
  'resolveRoute',
  'getRoute',
  'settleRoute',
  'getFleetStatus',
  'expireLeases',
];
