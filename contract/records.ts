// The record and message types of fleetproof-registry/v1, shared by the
// reference (stores, server) and the harness (client, conformance, properties,
// load audit). openapi.yaml holds the same shapes as JSON Schema with their
// bounds; contract/schemas.test.ts checks the two agree on field names.
import type { ScopeKind } from './errors.ts';

export type Timestamp = string; // RFC 3339 UTC, millisecond precision

export interface ConnectorType {
  id: string;
  name: string;
  owner: string;
  enabled: boolean;
}

export type CapabilityKind = 'agent' | 'tool' | 'workflow' | 'channel' | 'resource' | 'human_task';
export type JsonSchema = boolean | Record<string, unknown>;

export interface Capability {
  id: string;
  name: string;
  kind: CapabilityKind;
  description?: string;
  input_schema: JsonSchema;
  output_schema?: JsonSchema;
}

export interface CapabilityDefinition {
  capability: Capability;
  contract_digest: string;
  schema_digest: string;
}

export interface Manifest {
  profiles: string[];
  capabilities: Capability[];
}

export type EvidenceStatus = 'not_evaluated' | 'passed' | 'failed';

export interface Attestation {
  artifact_digest: string;
  sbom_digest: string;
  provenance_digest: string;
  signature_ref: string;
  signer_identity: string;
  owner: string;
  conformance_status: EvidenceStatus;
  vulnerability_policy_status: EvidenceStatus;
  license_policy_status: EvidenceStatus;
  revocation_status: EvidenceStatus;
}

export type VersionStatus = 'admitted' | 'active' | 'revoked';

/** What an administrator submits to admit a version. */
export interface VersionAdmission {
  id: string;
  connector_type_id: string;
  version: string;
  status: VersionStatus;
  manifest: Manifest;
  manifest_digest: string;
  attestation: Attestation;
}

/** A stored version: the admission plus what the registry established. */
export interface ConnectorVersion extends VersionAdmission {
  supply_chain_qualified: boolean;
  admitted_at: Timestamp;
}

export type InstanceStatus = 'enabled' | 'disabled';

export interface ConnectorInstance {
  id: string;
  connector_type_id: string;
  version_id: string;
  tenant_id: string;
  config_revision: number;
  secret_provider_ref: string;
  status: InstanceStatus;
}

export interface CapabilityBinding {
  tenant_id: string;
  capability_id: string;
  instance_id: string;
  priority: number;
  policy_revision: number;
  credential_revision_ref: string | null;
  quota_policy_ref: string | null;
  enabled: boolean;
}

export interface AdmissionPolicy {
  policy_ref: string;
  revision: number;
  enabled: boolean;
  max_global_in_flight: number;
  max_tenant_in_flight: number;
  max_connector_type_in_flight: number;
  max_instance_in_flight: number;
  max_binding_in_flight: number;
  max_tenant_retry_in_flight: number;
  circuit_failure_threshold: number;
  circuit_open_ms: number;
}

export type PrincipalKind = 'human' | 'agent' | 'service' | 'tenant' | 'customer' | 'contact' | 'system';
export type ReplicaStatus = 'ready' | 'draining' | 'offline';

export interface Topology {
  region: string;
  zone: string;
  capacity_class: string;
}

/** The mutable state of a replica, changed only by health reports. */
export interface HealthReport {
  health_revision: number;
  status: ReplicaStatus;
  lease_expires_at: Timestamp;
  capacity: number;
}

/** What a lifecycle client submits to provision a replica. */
export interface ReplicaProvision extends HealthReport {
  id: string;
  instance_id: string;
  version_id: string;
  endpoint: string;
  peer_principal_id: string;
  peer_principal_kind: PrincipalKind;
  peer_did: string;
  trust_domain: string;
  transport_profile: string;
  topology: Topology;
}

export interface CircuitState {
  state: 'closed' | 'open';
  consecutive_failures: number;
  open_until: Timestamp | null;
}

/** A replica as readers see it, with the registry-owned state. */
export interface ConnectorReplica extends ReplicaProvision {
  active_assignments: number;
  circuit: CircuitState;
}

export interface ScopeReservation {
  kind: ScopeKind;
  key: string;
  limit: number;
}

export interface AdmissionReservation {
  policy_ref: string | null;
  policy_revision: number;
  base_scopes: ScopeReservation[];
  retry_scope: ScopeReservation | null;
  circuit_failure_threshold: number;
  circuit_open_ms: number;
}

export interface RouteAssignment {
  action_id: string;
  capability_id: string;
  tenant_id: string;
  instance_id: string;
  version_id: string;
  manifest_digest: string;
  replica_id: string;
  endpoint: string;
  peer_principal_id: string;
  peer_principal_kind: PrincipalKind;
  peer_did: string;
  trust_domain: string;
  transport_profile: string;
  topology: Topology;
  catalog_revision: number;
  binding_policy_revision: number;
  credential_revision_ref: string | null;
  quota_policy_ref: string | null;
  replica_health_revision: number;
  fence_token: string;
  admission: AdmissionReservation;
  assigned_at: Timestamp;
}

export type SettlementOutcome = 'completed' | 'outcome_unknown' | 'cancelled' | 'lease_expired';
export const SETTLEMENT_OUTCOMES: readonly SettlementOutcome[] = ['completed', 'outcome_unknown', 'cancelled', 'lease_expired'];

/** A route as resolve and the route read return it. */
export interface RouteView {
  assignment: RouteAssignment;
  reserved: boolean;
  last_settlement: SettlementOutcome | null;
}

export interface SettlementResult {
  action_id: string;
  released: boolean;
  last_settlement: SettlementOutcome | null;
}

export interface TopologyPreference {
  region?: string;
  zone?: string;
  capacity_class?: string;
  allow_cross_region?: boolean;
}

export interface ResolveRequest {
  action_id: string;
  capability_id: string;
  topology?: TopologyPreference;
}

export interface CatalogQuery {
  capability_id?: string;
  text?: string;
  profile?: string;
  limit?: number;
  cursor?: string;
}

/** Who is reading the catalog (spec.md §7); derived from the token only. */
export interface CatalogContext {
  tenant_id: string | null;
  allow_unbound: boolean;
}

export interface CapabilityPage {
  catalog_revision: number;
  capabilities: CapabilityDefinition[];
  next_cursor: string | null;
  total: number;
}

export interface ResolvedCapability {
  definition: CapabilityDefinition;
  catalog_revision: number;
}

export interface AdmissionCounter {
  kind: ScopeKind;
  key: string;
  active: number;
}

export interface FleetStatus {
  catalog_revision: number;
  connector_types: number;
  active_versions: number;
  enabled_instances: number;
  replicas: number;
  ready_replicas: number;
  draining_replicas: number;
  offline_replicas: number;
  expired_leases: number;
  ready_capacity: number;
  active_assignments: number;
  observed_at: Timestamp;
}

export interface LeaseExpiryResult {
  expired: number;
}

export type WriteOutcome = 'applied' | 'unchanged';

export interface WriteResult<T> {
  outcome: WriteOutcome;
  catalog_revision: number;
  record: T;
}

/** One write of a batch (spec.md [batch-items]). */
export type BatchItem =
  | { op: 'put_connector_type'; record: ConnectorType }
  | { op: 'set_connector_type_enabled'; id: string; enabled: boolean }
  | { op: 'admit_version'; record: VersionAdmission }
  | { op: 'set_version_status'; id: string; status: VersionStatus }
  | { op: 'put_instance'; record: ConnectorInstance }
  | { op: 'put_binding'; record: CapabilityBinding }
  | { op: 'put_admission_policy'; record: AdmissionPolicy }
  | { op: 'provision_replica'; record: ReplicaProvision }
  | { op: 'report_health'; id: string; report: HealthReport };

export type BatchOp = BatchItem['op'];

export type BatchItemResult =
  | { index: number; outcome: WriteOutcome }
  | { index: number; outcome: 'rejected'; error: { code: string; message: string; details?: Record<string, unknown> } };

export interface BatchResult {
  catalog_revision: number;
  results: BatchItemResult[];
}

export interface RegistryLimits {
  max_capabilities_per_version: number;
  max_manifest_bytes: number;
  max_capability_bytes: number;
  max_page_size: number;
  max_page_bytes: number;
  max_batch_items: number;
  max_body_bytes: number;
  max_expiry_batch: number;
}

export const DEFAULT_LIMITS: Readonly<RegistryLimits> = Object.freeze({
  max_capabilities_per_version: 512,
  max_manifest_bytes: 4 * 1024 * 1024,
  max_capability_bytes: 256 * 1024,
  max_page_size: 200,
  max_page_bytes: 4 * 1024 * 1024,
  max_batch_items: 1000,
  max_body_bytes: 16 * 1024 * 1024,
  max_expiry_batch: 10_000,
});

/**
 * The smallest value each limit may be declared with (spec.md [limits-declared]);
 * there is no largest. Besides these, max_capability_bytes ≤ max_page_bytes.
 */
export const LIMIT_MINIMUMS: Readonly<RegistryLimits> = Object.freeze({
  max_capabilities_per_version: 1,
  max_manifest_bytes: 4096,
  max_capability_bytes: 2048,
  max_page_size: 1,
  max_page_bytes: 2048,
  max_batch_items: 1000,
  max_body_bytes: 65_536,
  max_expiry_batch: 1,
});

/** What makes a set of limits illegal under [limits-declared]; empty when it is legal. */
export function limitProblems(limits: RegistryLimits): string[] {
  const problems: string[] = [];
  for (const [name, min] of Object.entries(LIMIT_MINIMUMS) as Array<[keyof RegistryLimits, number]>) {
    const value = limits[name];
    if (!Number.isSafeInteger(value) || value < min) problems.push(`${name} must be an integer of at least ${min}, not ${String(value)}`);
  }
  if (limits.max_capability_bytes > limits.max_page_bytes) problems.push('max_capability_bytes cannot exceed max_page_bytes');
  return problems;
}

export const DEFAULT_PAGE_LIMIT = 50;

/** The page size of a catalog read without `limit` (spec.md [page-limit]). */
export function defaultPageLimit(limits: Pick<RegistryLimits, 'max_page_size'>): number {
  return Math.min(DEFAULT_PAGE_LIMIT, limits.max_page_size);
}

/** The largest limit value; it turns a scope off (spec.md [admission-scopes]). */
export const SCOPE_OFF = 4_294_967_295;

export const CONTRACT_VERSION = 'fleetproof-registry/v1';

export const ROLES = [
  'registry:admin',
  'registry:lifecycle',
  'registry:reader',
  'registry:dispatch',
  'registry:operator',
  'registry:internal',
] as const;
export type Role = (typeof ROLES)[number];

/** Optional features an implementation may declare in GET /version. */
export const FEATURES = ['metrics'] as const;
export type Feature = (typeof FEATURES)[number];

export interface VersionInfo {
  implementation: { name: string; version: string };
  contract: typeof CONTRACT_VERSION;
  limits: RegistryLimits;
  features: Feature[];
  /**
   * Optional, informative ([ops-version]): a registry started as one of
   * several builds of itself (the reference's variants) names the build, so
   * a report says which one was judged. Nothing is judged on it.
   */
  variant?: VariantInfo;
}

export interface VariantInfo {
  seed: number;
  /** The implementation-defined choices the build made, by name. */
  choices: Record<string, string | number | boolean>;
}
