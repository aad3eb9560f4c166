// Rows to records and back. Records come back with their fields in the order
// contract/records.ts declares them; registry-owned state comes from columns.
import type {
  AdmissionPolicy,
  Attestation,
  CapabilityDefinition,
  CapabilityBinding,
  ConnectorInstance,
  ConnectorType,
  ConnectorVersion,
  InstanceStatus,
  ReplicaProvision,
  ReplicaStatus,
  VersionStatus,
} from '../../../contract/records.ts';
import type { Circuit } from '../../domain/circuit.ts';
import { toTimestamp } from '../../domain/time.ts';

export interface TypeRow {
  type_id: string;
  record: ConnectorType;
  enabled: boolean;
}

export function typeOf(row: TypeRow): ConnectorType {
  return { ...row.record, enabled: row.enabled };
}

export interface VersionRow {
  version_id: string;
  type_id: string;
  version: string;
  status: VersionStatus;
  manifest_digest: string;
  attestation: Attestation;
  supply_chain_qualified: boolean;
  admitted_at_ms: number;
  /** In manifest order. */
  capability_ids: string[];
  /** In manifest order. */
  profile_ids: string[];
}

/** The stored version; its manifest's capabilities are the shared definitions'. */
export function versionOf(row: VersionRow, definition: (capabilityId: string) => CapabilityDefinition): ConnectorVersion {
  return {
    id: row.version_id,
    connector_type_id: row.type_id,
    version: row.version,
    status: row.status,
    manifest: { profiles: row.profile_ids, capabilities: row.capability_ids.map((id) => definition(id).capability) },
    manifest_digest: row.manifest_digest,
    attestation: row.attestation,
    supply_chain_qualified: row.supply_chain_qualified,
    admitted_at: toTimestamp(row.admitted_at_ms),
  };
}

export interface InstanceRow {
  instance_id: string;
  type_id: string;
  version_id: string;
  tenant_id: string;
  config_revision: number;
  secret_provider_ref: string;
  status: InstanceStatus;
}

export function instanceOf(row: InstanceRow): ConnectorInstance {
  return {
    id: row.instance_id,
    connector_type_id: row.type_id,
    version_id: row.version_id,
    tenant_id: row.tenant_id,
    config_revision: row.config_revision,
    secret_provider_ref: row.secret_provider_ref,
    status: row.status,
  };
}

export interface BindingRow {
  tenant_id: string;
  capability_id: string;
  instance_id: string;
  priority: number;
  policy_revision: number;
  credential_revision_ref: string | null;
  quota_policy_ref: string | null;
  enabled: boolean;
  scope_key: string;
}

export function bindingOf(row: BindingRow): CapabilityBinding {
  return {
    tenant_id: row.tenant_id,
    capability_id: row.capability_id,
    instance_id: row.instance_id,
    priority: row.priority,
    policy_revision: row.policy_revision,
    credential_revision_ref: row.credential_revision_ref,
    quota_policy_ref: row.quota_policy_ref,
    enabled: row.enabled,
  };
}

export type PolicyRow = AdmissionPolicy;

export function policyOf(row: PolicyRow): AdmissionPolicy {
  return {
    policy_ref: row.policy_ref,
    revision: row.revision,
    enabled: row.enabled,
    max_global_in_flight: row.max_global_in_flight,
    max_tenant_in_flight: row.max_tenant_in_flight,
    max_connector_type_in_flight: row.max_connector_type_in_flight,
    max_instance_in_flight: row.max_instance_in_flight,
    max_binding_in_flight: row.max_binding_in_flight,
    max_tenant_retry_in_flight: row.max_tenant_retry_in_flight,
    circuit_failure_threshold: row.circuit_failure_threshold,
    circuit_open_ms: row.circuit_open_ms,
  };
}

export interface ReplicaRow {
  replica_id: string;
  provision: ReplicaProvision;
  status: ReplicaStatus;
  lease_expires_at_ms: number;
  capacity: number;
  health_revision: number;
  active_assignments: number;
  consecutive_failures: number;
  circuit_open_until_ms: number;
}

/** The replica as provisioned, with its current health. */
export function provisionOf(row: ReplicaRow): ReplicaProvision {
  return {
    ...row.provision,
    health_revision: row.health_revision,
    status: row.status,
    lease_expires_at: toTimestamp(row.lease_expires_at_ms),
    capacity: row.capacity,
  };
}

export function circuitOf(row: Pick<ReplicaRow, 'consecutive_failures' | 'circuit_open_until_ms'>): Circuit {
  return { consecutive_failures: row.consecutive_failures, open_until_ms: row.circuit_open_until_ms };
}
