// Writes what a draft staged: one bulk statement per table, in foreign-key
// order, then one revision bump for the whole group ([revision-advances]).
import { tiebreakHash } from '../../domain/digest.ts';
import { storageUnavailable } from '../../../contract/registry-error.ts';
import { fromTimestamp } from '../../domain/time.ts';
import { run, type Db } from './database.ts';
import { sql } from './sql.ts';
import type { WriteDraft } from './write-draft.ts';

const json = (v: unknown) => JSON.stringify(v);

/** Writes the staged catalog changes; returns the new revision, or null when nothing changed. */
export async function flushCatalog(draft: WriteDraft, db: Db, nowMs: number, revisionStep: number): Promise<number | null> {
  const s = draft.staged;
  if (s.types.size > 0) {
    const types = [...s.types].map((id) => draft.types.get(id)!);
    await run(db, sql('upsert-types'), [types.map((t) => t.id), types.map((t) => t.enabled), types.map(json)]);
  }
  if (s.policies.size > 0) {
    const ps = [...s.policies].map((ref) => draft.policies.get(ref)!);
    await run(db, sql('upsert-policies'), [
      ps.map((p) => p.policy_ref),
      ps.map((p) => p.revision),
      ps.map((p) => p.enabled),
      ps.map((p) => p.max_global_in_flight),
      ps.map((p) => p.max_tenant_in_flight),
      ps.map((p) => p.max_connector_type_in_flight),
      ps.map((p) => p.max_instance_in_flight),
      ps.map((p) => p.max_binding_in_flight),
      ps.map((p) => p.max_tenant_retry_in_flight),
      ps.map((p) => p.circuit_failure_threshold),
      ps.map((p) => p.circuit_open_ms),
    ]);
  }
  if (s.definitions.size > 0) {
    const ids = [...s.definitions.keys()];
    await run(db, sql('insert-definitions'), [ids, ids.map((id) => s.definitions.get(id)!), ids.map((id) => json(draft.definition(id)))]);
  }
  if (s.versions.size > 0) {
    const rows = [...s.versions].map((id) => draft.versions.get(id)!.row);
    await run(db, sql('insert-versions'), [
      rows.map((r) => r.version_id),
      rows.map((r) => r.type_id),
      rows.map((r) => r.version),
      rows.map((r) => r.status),
      rows.map((r) => r.attestation.artifact_digest),
      rows.map((r) => r.manifest_digest),
      rows.map((r) => r.supply_chain_qualified),
      rows.map((r) => r.admitted_at_ms),
      rows.map((r) => json(r.attestation)),
    ]);
    const capabilities = rows.flatMap((r) => r.capability_ids.map((c, i) => [r.version_id, c, i] as const));
    const profiles = rows.flatMap((r) => r.profile_ids.map((p, i) => [r.version_id, p, i] as const));
    await run(db, sql('insert-version-links'), [
      capabilities.map((c) => c[0]),
      capabilities.map((c) => c[1]),
      capabilities.map((c) => c[2]),
      profiles.map((p) => p[0]),
      profiles.map((p) => p[1]),
      profiles.map((p) => p[2]),
    ]);
  }
  if (s.versionStatus.size > 0) {
    const rows = [...s.versionStatus].map((id) => draft.versions.get(id)!.row);
    await run(db, sql('update-version-status'), [rows.map((r) => r.version_id), rows.map((r) => r.status)]);
  }
  if (s.instances.size > 0) {
    const is = [...s.instances].map((id) => draft.instances.get(id)!);
    await run(db, sql('upsert-instances'), [
      is.map((i) => i.id),
      is.map((i) => i.connector_type_id),
      is.map((i) => i.version_id),
      is.map((i) => i.tenant_id),
      is.map((i) => i.config_revision),
      is.map((i) => i.secret_provider_ref),
      is.map((i) => i.status),
    ]);
  }
  if (s.bindings.size > 0) {
    const bs = [...s.bindings].map((key) => draft.bindings.get(key)!);
    await run(db, sql('upsert-bindings'), [
      bs.map((b) => b.record.tenant_id),
      bs.map((b) => b.record.capability_id),
      bs.map((b) => b.record.instance_id),
      bs.map((b) => b.record.priority),
      bs.map((b) => b.record.policy_revision),
      bs.map((b) => b.record.credential_revision_ref),
      bs.map((b) => b.record.quota_policy_ref),
      bs.map((b) => b.record.enabled),
      bs.map((b) => b.scopeKey),
    ]);
  }
  if (!draft.catalogChanged) return null;
  const [row] = await run<{ revision: number }>(db, sql('bump-revision'), [nowMs, revisionStep]);
  return row!.revision;
}

/** Writes the staged replica changes (their ids are locked by the draft's preload). */
export async function flushLifecycle(draft: WriteDraft, db: Db, tiebreakSalt: number): Promise<void> {
  const s = draft.staged;
  if (s.newReplicas.size > 0) {
    const rs = [...s.newReplicas].map((id) => draft.replicas.get(id)!.provision);
    const inserted = await run<{ replica_id: string }>(db, sql('insert-replicas'), [
      rs.map((r) => r.id),
      rs.map((r) => r.instance_id),
      rs.map((r) => r.version_id),
      rs.map((r) => r.topology.region),
      rs.map((r) => r.topology.zone),
      rs.map((r) => r.topology.capacity_class),
      rs.map((r) => r.status),
      rs.map((r) => fromTimestamp(r.lease_expires_at)),
      rs.map((r) => r.capacity),
      rs.map((r) => r.health_revision),
      rs.map((r) => tiebreakHash(r.id, tiebreakSalt)),
      rs.map(json),
    ]);
    // The id locks make a concurrent creation impossible; a miss means a defect, never a success.
    if (inserted.length !== rs.length) throw storageUnavailable('a replica being provisioned already exists');
  }
  if (s.replicaHealth.size > 0) {
    const rs = [...s.replicaHealth].map((id) => draft.replicas.get(id)!.provision);
    await run(db, sql('update-replica-health'), [
      rs.map((r) => r.id),
      rs.map((r) => r.status),
      rs.map((r) => fromTimestamp(r.lease_expires_at)),
      rs.map((r) => r.capacity),
      rs.map((r) => r.health_revision),
    ]);
  }
}
