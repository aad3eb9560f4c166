// Loading a write draft: every row a group of writes can read, in a few bulk
// queries whatever the group's size (see write-draft.ts).
import type { BatchItem, CapabilityDefinition } from '../../../contract/records.ts';
import { bindingKeyOf } from '../../domain/rules/binding.ts';
import { run, type Db } from './database.ts';
import {
  bindingOf,
  circuitOf,
  instanceOf,
  policyOf,
  provisionOf,
  typeOf,
  type BindingRow,
  type InstanceRow,
  type PolicyRow,
  type ReplicaRow,
  type TypeRow,
  type VersionRow,
} from './rows.ts';
import { sql } from './sql.ts';
import { ownerOfArtifact, ownerOfString, type WriteDraft } from './write-draft.ts';

const str = (v: unknown): v is string => typeof v === 'string';
const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});

/**
 * Loads every row the items can read into `draft`. Catalog rows come through
 * `catalog` (under the exclusive publication lock when the items write the
 * catalog); replicas through `lifecycle`, locked for the rest of its
 * transaction.
 */
export async function preloadDraft(draft: WriteDraft, items: readonly unknown[], catalog: Db, lifecycle: Db | undefined): Promise<void> {
  const want = {
    types: new Set<string>(),
    versions: new Set<string>(),
    ownerPairs: [] as Array<[string, string]>,
    artifacts: new Set<string>(),
    definitions: new Set<string>(),
    instances: new Set<string>(),
    bindingKeys: new Map<string, [string, string, string]>(),
    rollouts: new Set<string>(),
    policies: new Set<string>(),
    replicas: new Set<string>(),
  };
  for (const raw of items) {
    const item = obj(raw);
    const record = obj(item['record']);
    switch (item['op'] as BatchItem['op']) {
      case 'put_connector_type':
        if (str(record['id'])) want.types.add(record['id']);
        break;
      case 'set_connector_type_enabled':
        if (str(item['id'])) want.types.add(item['id']);
        break;
      case 'admit_version': {
        const typeId = record['connector_type_id'];
        if (str(record['id'])) want.versions.add(record['id']);
        if (str(typeId)) want.types.add(typeId);
        if (str(typeId) && str(record['version'])) want.ownerPairs.push([typeId, record['version']]);
        const artifact = obj(record['attestation'])['artifact_digest'];
        if (str(artifact)) want.artifacts.add(artifact);
        const capabilities = obj(record['manifest'])['capabilities'];
        if (Array.isArray(capabilities)) for (const c of capabilities) if (str(obj(c)['id'])) want.definitions.add(obj(c)['id'] as string);
        break;
      }
      case 'set_version_status':
        if (str(item['id'])) want.versions.add(item['id']);
        break;
      case 'put_instance':
        if (str(record['id'])) {
          want.instances.add(record['id']);
          want.rollouts.add(record['id']);
        }
        if (str(record['version_id'])) want.versions.add(record['version_id']);
        break;
      case 'put_binding': {
        const [t, c, i] = [record['tenant_id'], record['capability_id'], record['instance_id']];
        if (str(t) && str(c) && str(i)) want.bindingKeys.set(bindingKeyOf({ tenant_id: t, capability_id: c, instance_id: i }), [t, c, i]);
        if (str(i)) want.instances.add(i);
        if (str(record['quota_policy_ref'])) want.policies.add(record['quota_policy_ref']);
        break;
      }
      case 'put_admission_policy':
        if (str(record['policy_ref'])) want.policies.add(record['policy_ref']);
        break;
      case 'provision_replica':
        if (str(record['id'])) want.replicas.add(record['id']);
        if (str(record['instance_id'])) want.instances.add(record['instance_id']);
        break;
      case 'report_health':
        if (str(item['id'])) want.replicas.add(item['id']);
        break;
    }
  }
  await loadTypes(draft, catalog, want.types);
  await loadInstances(draft, catalog, want.instances);
  // A binding is checked against its instance's current version.
  for (const id of want.instances) {
    const instance = draft.instances.get(id);
    if (instance) want.versions.add(instance.version_id);
  }
  await loadVersions(draft, catalog, want.versions);
  for (const id of want.versions) for (const c of draft.versions.get(id)?.capabilityIds ?? []) want.definitions.add(c);
  await loadOwners(draft, catalog, want.ownerPairs, want.artifacts);
  await loadDefinitions(draft, catalog, want.definitions);
  await loadBindings(draft, catalog, want.bindingKeys, want.rollouts);
  await loadPolicies(draft, catalog, want.policies);
  if (want.replicas.size > 0) {
    if (!lifecycle) throw new Error('replica writes need a data-plane transaction');
    await loadReplicas(draft, lifecycle, want.replicas);
  }
}

async function loadTypes(draft: WriteDraft, db: Db, ids: Set<string>): Promise<void> {
  if (ids.size === 0) return;
  draft.types.expect(ids);
  for (const row of await run<TypeRow>(db, sql('load-types'), [[...ids]])) draft.types.set(row.type_id, typeOf(row));
}

async function loadInstances(draft: WriteDraft, db: Db, ids: Set<string>): Promise<void> {
  if (ids.size === 0) return;
  draft.instances.expect(ids);
  for (const row of await run<InstanceRow>(db, sql('load-instances'), [[...ids]])) draft.instances.set(row.instance_id, instanceOf(row));
}

async function loadVersions(draft: WriteDraft, db: Db, ids: Set<string>): Promise<void> {
  if (ids.size === 0) return;
  draft.versions.expect(ids);
  for (const row of await run<VersionRow>(db, sql('load-versions'), [[...ids]])) {
    draft.versions.set(row.version_id, { row, capabilityIds: new Set(row.capability_ids) });
  }
}

async function loadOwners(draft: WriteDraft, db: Db, pairs: Array<[string, string]>, artifacts: Set<string>): Promise<void> {
  if (pairs.length === 0 && artifacts.size === 0) return;
  draft.versionOwners.expect(pairs.map(([t, v]) => ownerOfString(t, v)));
  draft.versionOwners.expect([...artifacts].map(ownerOfArtifact));
  const rows = await run<{ version_id: string; type_id: string; version: string; artifact_digest: string }>(
    db,
    sql('load-version-owners'),
    [pairs.map((p) => p[0]), pairs.map((p) => p[1]), [...artifacts]],
  );
  for (const row of rows) {
    draft.versionOwners.set(ownerOfString(row.type_id, row.version), row.version_id);
    draft.versionOwners.set(ownerOfArtifact(row.artifact_digest), row.version_id);
  }
}

async function loadDefinitions(draft: WriteDraft, db: Db, ids: Set<string>): Promise<void> {
  const missing = [...ids].filter((id) => !draft.definitions.has(id));
  if (missing.length === 0) return;
  draft.definitions.expect(missing);
  for (const row of await run<{ capability_id: string; definition: CapabilityDefinition }>(db, sql('load-definitions'), [missing])) {
    draft.definitions.set(row.capability_id, row.definition);
  }
}

async function loadBindings(draft: WriteDraft, db: Db, keys: Map<string, [string, string, string]>, rollouts: Set<string>): Promise<void> {
  if (keys.size > 0) {
    draft.bindings.expect(keys.keys());
    const parts = [...keys.values()];
    const rows = await run<BindingRow>(db, sql('load-bindings'), [parts.map((p) => p[0]), parts.map((p) => p[1]), parts.map((p) => p[2])]);
    for (const row of rows) draft.bindings.set(bindingKeyOf(row), { record: bindingOf(row), scopeKey: row.scope_key });
  }
  if (rollouts.size > 0) {
    for (const id of rollouts) draft.enabledBindings.set(id, new Map());
    for (const row of await run<BindingRow>(db, sql('load-bound-capabilities'), [[...rollouts]])) {
      draft.enabledBindings.get(row.instance_id)!.set(bindingKeyOf(row), bindingOf(row));
    }
  }
}

async function loadPolicies(draft: WriteDraft, db: Db, refs: Set<string>): Promise<void> {
  if (refs.size === 0) return;
  draft.policies.expect(refs);
  for (const row of await run<PolicyRow>(db, sql('load-policies'), [[...refs]])) draft.policies.set(row.policy_ref, policyOf(row));
}

async function loadReplicas(draft: WriteDraft, db: Db, ids: Set<string>): Promise<void> {
  draft.replicas.expect(ids);
  await run(db, sql('lock-replica-ids'), [[...ids].sort()]);
  for (const row of await run<ReplicaRow>(db, sql('lock-replicas'), [[...ids]])) {
    draft.replicas.set(row.replica_id, { provision: provisionOf(row), active: row.active_assignments, circuit: circuitOf(row) });
  }
}
