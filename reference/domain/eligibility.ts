// Who may take an attempt (spec.md [catalog-tenant-visibility],
// [route-eligibility], [pinned-replica-conditions]). The stores load the rows;
// these predicates decide, so both stores apply one rule.
import type {
  CapabilityBinding,
  ConnectorInstance,
  ConnectorType,
  ReplicaStatus,
  Topology,
  TopologyPreference,
  VersionStatus,
} from '../../contract/records.ts';
import { circuitClosed, type Circuit } from './circuit.ts';

export interface VersionFacts {
  status: VersionStatus;
  supply_chain_qualified: boolean;
  connector_type_id: string;
  implements(capabilityId: string): boolean;
  declaresProfile(profile: string): boolean;
}

/** The five-condition chain behind catalog visibility and routing. */
export function bindingChainValid(
  binding: CapabilityBinding,
  instance: ConnectorInstance | undefined,
  version: VersionFacts | undefined,
  type: Pick<ConnectorType, 'enabled'> | undefined,
  profile?: string,
): boolean {
  return (
    binding.enabled &&
    instance !== undefined &&
    instance.status === 'enabled' &&
    instance.tenant_id === binding.tenant_id &&
    version !== undefined &&
    version.status === 'active' &&
    version.supply_chain_qualified &&
    type !== undefined &&
    type.enabled &&
    version.implements(binding.capability_id) &&
    (profile === undefined || version.declaresProfile(profile))
  );
}

/**
 * The replica state routing reads. The circuit fields sit on the replica
 * itself, so a candidate scan touches one object per replica, and topology is
 * read only when the request constrains it.
 */
export interface ReplicaFacts extends Circuit {
  version_id: string;
  status: ReplicaStatus;
  lease_expires_at_ms: number;
  capacity: number;
  active: number;
  topology: Topology;
}

/** [route-eligibility]: may this replica take a new action? */
export function replicaTakesNewRoute(r: ReplicaFacts, instanceVersionId: string, pref: TopologyPreference, nowMs: number): boolean {
  return (
    r.version_id === instanceVersionId &&
    r.status === 'ready' &&
    r.lease_expires_at_ms > nowMs &&
    r.active < r.capacity &&
    circuitClosed(r, nowMs) &&
    (pref.capacity_class === undefined || r.topology.capacity_class === pref.capacity_class) &&
    (pref.allow_cross_region !== false || pref.region === undefined || r.topology.region === pref.region)
  );
}

/** [pinned-replica-conditions], the replica half: may the pinned replica take a retry? */
export function replicaTakesRetry(r: ReplicaFacts, nowMs: number): boolean {
  return (
    (r.status === 'ready' || r.status === 'draining') && r.lease_expires_at_ms > nowMs && r.active < r.capacity && circuitClosed(r, nowMs)
  );
}

/** [pinned-replica-conditions], the target half: is the pinned chain still admitted? */
export function pinnedTargetValid(
  pinnedVersionId: string,
  instance: ConnectorInstance | undefined,
  version: Pick<VersionFacts, 'status' | 'supply_chain_qualified'> | undefined,
  type: Pick<ConnectorType, 'enabled'> | undefined,
): boolean {
  return (
    instance !== undefined &&
    instance.status === 'enabled' &&
    instance.version_id === pinnedVersionId &&
    version !== undefined &&
    version.status === 'active' &&
    version.supply_chain_qualified &&
    type !== undefined &&
    type.enabled
  );
}
