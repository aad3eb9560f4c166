// Administration and lifecycle writes (spec.md §4): which writes apply, which
// are `unchanged`, and which are refused with which code. When a write breaks
// several rules the contract does not rank them, so each becomes a branch.
import type { ErrorCode } from '../../../contract/errors.ts';
import {
  SCOPE_OFF,
  type AdmissionPolicy,
  type CapabilityBinding,
  type ConnectorInstance,
  type HealthReport,
  type ReplicaProvision,
  type VersionStatus,
  type WriteOutcome,
} from '../../../contract/records.ts';
import { sameJson } from '../json.ts';
import { bindingKey, type ModelState } from '../model-state.ts';
import { failures, success, type Branch } from './outcome.ts';

type Violations = Array<{ code: ErrorCode }>;

/** [records-binding-references], [records-binding-revision]. */
export function putBinding(s: ModelState, record: CapabilityBinding): Branch<WriteOutcome>[] {
  const existing = s.bindings[bindingKey(record)];
  if (existing && sameJson(existing, record)) return [success(s, 'unchanged')];
  const v: Violations = [];
  const instance = s.instances[record.instance_id];
  if (!instance) v.push({ code: 'NOT_FOUND' });
  else {
    if (instance.tenant_id !== record.tenant_id) v.push({ code: 'INVALID_REQUEST' });
    if (!s.versions[instance.version_id]?.capabilities.includes(record.capability_id)) v.push({ code: 'INVALID_REQUEST' });
  }
  if (record.quota_policy_ref !== null && !s.policies[record.quota_policy_ref]) v.push({ code: 'NOT_FOUND' });
  if (existing && record.policy_revision <= existing.policy_revision) v.push({ code: 'CONFLICT' });
  if (v.length > 0) return failures(s, v);
  s.bindings[bindingKey(record)] = structuredClone(record);
  return [success(s, 'applied')];
}

/** [records-instance-keys], [records-instance-revision], [records-instance-rollout]. */
export function putInstance(s: ModelState, record: ConnectorInstance): Branch<WriteOutcome>[] {
  const existing = s.instances[record.id];
  if (existing && sameJson(existing, record)) return [success(s, 'unchanged')];
  const v: Violations = [];
  if (existing && (existing.connector_type_id !== record.connector_type_id || existing.tenant_id !== record.tenant_id))
    v.push({ code: 'CONFLICT' });
  const version = s.versions[record.version_id];
  if (!version) v.push({ code: 'NOT_FOUND' });
  else if (version.type !== record.connector_type_id) v.push({ code: 'INVALID_REQUEST' });
  if (existing && record.config_revision <= existing.config_revision) v.push({ code: 'CONFLICT' });
  if (existing && version && record.version_id !== existing.version_id) {
    const stranded = Object.values(s.bindings).some(
      (b) => b.instance_id === record.id && b.enabled && !version.capabilities.includes(b.capability_id),
    );
    if (stranded) v.push({ code: 'CONFLICT' });
  }
  if (v.length > 0) return failures(s, v);
  s.instances[record.id] = structuredClone(record);
  return [success(s, 'applied')];
}

/** [records-version-status]. */
export function setVersionStatus(s: ModelState, id: string, status: VersionStatus): Branch<WriteOutcome>[] {
  const version = s.versions[id];
  if (!version) return failures(s, [{ code: 'NOT_FOUND' }]);
  if (version.status === status) return [success(s, 'unchanged')];
  if (version.status === 'revoked') return failures(s, [{ code: 'CONFLICT' }]);
  version.status = status;
  return [success(s, 'applied')];
}

/** [records-type-enable]. */
export function setTypeEnabled(s: ModelState, id: string, enabled: boolean): Branch<WriteOutcome>[] {
  const type = s.types[id];
  if (!type) return failures(s, [{ code: 'NOT_FOUND' }]);
  if (type.enabled === enabled) return [success(s, 'unchanged')];
  type.enabled = enabled;
  return [success(s, 'applied')];
}

function policyInBounds(p: AdmissionPolicy): boolean {
  const limits = [
    p.max_global_in_flight,
    p.max_tenant_in_flight,
    p.max_connector_type_in_flight,
    p.max_instance_in_flight,
    p.max_binding_in_flight,
    p.max_tenant_retry_in_flight,
  ];
  return (
    p.revision >= 1 &&
    limits.every((l) => l >= 1 && l <= SCOPE_OFF) &&
    p.circuit_failure_threshold >= 1 &&
    p.circuit_open_ms >= 100 &&
    p.circuit_open_ms <= 3_600_000
  );
}

/** [records-policy-bounds], [records-policy-revision]. */
export function putPolicy(s: ModelState, record: AdmissionPolicy): Branch<WriteOutcome>[] {
  const existing = s.policies[record.policy_ref];
  if (existing && sameJson(existing, record)) return [success(s, 'unchanged')];
  const v: Violations = [];
  if (!policyInBounds(record)) v.push({ code: 'INVALID_REQUEST' });
  if (existing && record.revision <= existing.revision) v.push({ code: 'CONFLICT' });
  if (v.length > 0) return failures(s, v);
  s.policies[record.policy_ref] = structuredClone(record);
  return [success(s, 'applied')];
}

const HEALTH_FIELDS = ['health_revision', 'status', 'lease_expires_at', 'capacity'] as const;

/**
 * [records-replica-provision]: an existing id with the replica's current
 * body is `unchanged`; with only its health-owned state different (its
 * original body after health reports, say) a registry may compare the fixed
 * fields alone and answer `unchanged`, or `CONFLICT` (implementation-defined);
 * with any other body `CONFLICT`. A version the instance does not run is
 * `INVALID_REQUEST`, and of two broken rules either answers ([error-precedence]).
 */
export function provisionReplica(s: ModelState, record: ReplicaProvision): Branch<WriteOutcome>[] {
  const existing = s.replicas[record.id];
  const current = existing ? { ...existing.provision, ...existing.health } : undefined;
  if (current && sameJson(current, record)) return [success(s, 'unchanged')];
  const instance = s.instances[record.instance_id];
  const v: Violations = [];
  if (existing) v.push({ code: 'CONFLICT' });
  if (!instance) v.push({ code: 'NOT_FOUND' });
  else if (instance.version_id !== record.version_id) v.push({ code: 'INVALID_REQUEST' });
  const unchangedAllowed =
    current !== undefined && sameJson({ ...current, ...Object.fromEntries(HEALTH_FIELDS.map((k) => [k, record[k]])) }, record);
  if (v.length > 0) return [...(unchangedAllowed ? [success(s, 'unchanged' as const)] : []), ...failures<WriteOutcome>(s, v)];
  const health = Object.fromEntries(HEALTH_FIELDS.map((k) => [k, record[k]])) as unknown as HealthReport;
  s.replicas[record.id] = {
    provision: structuredClone(record),
    health,
    leaseMs: Date.parse(record.lease_expires_at),
    active: 0,
    failures: 0,
    openUntil: 0,
    openUntilSpan: 0,
  };
  return [success(s, 'applied')];
}

/** [records-replica-health], [records-replica-capacity]. */
export function reportHealth(s: ModelState, id: string, report: HealthReport): Branch<WriteOutcome>[] {
  const r = s.replicas[id];
  if (!r) return failures(s, [{ code: 'NOT_FOUND' }]);
  if (sameJson(r.health, report)) return [success(s, 'unchanged')];
  const v: Violations = [];
  if (report.health_revision <= r.health.health_revision) v.push({ code: 'CONFLICT' });
  if (report.capacity < r.active) v.push({ code: 'CONFLICT' });
  if (v.length > 0) return failures(s, v);
  r.health = structuredClone(report);
  r.leaseMs = Date.parse(report.lease_expires_at);
  delete r.leaseNoLaterThan;
  return [success(s, 'applied')];
}
