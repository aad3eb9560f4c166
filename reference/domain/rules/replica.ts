// Replica provisioning and health reports (spec.md [records-replica-*]).
import type { ConnectorInstance, HealthReport, ReplicaProvision, WriteOutcome } from '../../../contract/records.ts';
import { conflict, invalid, notFound } from '../../../contract/registry-error.ts';
import type { RewriteAnswer } from '../choices.ts';
import { assertShape, jsonEqual } from '../validation.ts';

export function decideProvisionReplica(
  record: unknown,
  existing: ReplicaProvision | undefined,
  instance: ConnectorInstance | undefined,
  reprovisionOriginal: RewriteAnswer = 'conflict',
): WriteOutcome {
  assertShape<ReplicaProvision>('ReplicaProvision', record);
  if (existing !== undefined) {
    if (jsonEqual(existing, record)) return 'unchanged';
    // [records-replica-provision]: whether the state health reports changed takes part is open.
    if (reprovisionOriginal === 'unchanged' && jsonEqual({ ...existing, ...healthOf(record) }, record)) return 'unchanged';
    throw conflict(`replica ${record.id} exists; change its state with a health report`);
  }
  if (instance === undefined) throw notFound(`instance ${record.instance_id}`);
  if (instance.version_id !== record.version_id) throw invalid("a new replica must serve its instance's current version");
  return 'applied';
}

export function healthOf(r: HealthReport): HealthReport {
  return { health_revision: r.health_revision, status: r.status, lease_expires_at: r.lease_expires_at, capacity: r.capacity };
}

export function decideReportHealth(id: string, report: unknown, stored: HealthReport | undefined, active: number): WriteOutcome {
  assertShape<string>('ReplicaId', id);
  assertShape<HealthReport>('HealthReport', report);
  if (stored === undefined) throw notFound(`replica ${id}`);
  if (jsonEqual(healthOf(stored), report)) return 'unchanged';
  if (report.health_revision <= stored.health_revision) throw conflict('health_revision must increase');
  if (report.capacity < active) throw conflict(`capacity ${report.capacity} is below the ${active} active assignments`);
  return 'applied';
}
