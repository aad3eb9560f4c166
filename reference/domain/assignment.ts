// Building the immutable route assignment (spec.md [assignment-fields]).
import type {
  AdmissionReservation,
  CapabilityBinding,
  ConnectorInstance,
  ReplicaProvision,
  RouteAssignment,
} from '../../contract/records.ts';
import { toTimestamp } from './time.ts';

export interface AssignmentSources {
  actionId: string;
  capabilityId: string;
  tenantId: string;
  instance: ConnectorInstance;
  manifestDigest: string;
  replica: ReplicaProvision;
  binding: CapabilityBinding;
  catalogRevision: number;
  fenceToken: string;
  admission: AdmissionReservation;
  nowMs: number;
}

export function buildAssignment(s: AssignmentSources): RouteAssignment {
  const r = s.replica;
  return {
    action_id: s.actionId,
    capability_id: s.capabilityId,
    tenant_id: s.tenantId,
    instance_id: s.instance.id,
    version_id: s.instance.version_id,
    manifest_digest: s.manifestDigest,
    replica_id: r.id,
    endpoint: r.endpoint,
    peer_principal_id: r.peer_principal_id,
    peer_principal_kind: r.peer_principal_kind,
    peer_did: r.peer_did,
    trust_domain: r.trust_domain,
    transport_profile: r.transport_profile,
    // Shared with the replica record: both are frozen, and the topology of a
    // replica never changes ([records-replica-provision]).
    topology: r.topology,
    catalog_revision: s.catalogRevision,
    binding_policy_revision: s.binding.policy_revision,
    credential_revision_ref: s.binding.credential_revision_ref,
    quota_policy_ref: s.binding.quota_policy_ref,
    replica_health_revision: r.health_revision,
    fence_token: s.fenceToken,
    admission: s.admission,
    assigned_at: toTimestamp(s.nowMs),
  };
}
