// The rows a group of writes needs, loaded in a few bulk reads, and the
// changes the writes decide, flushed in a few bulk statements. The domain
// rules decide against this draft exactly as the memory store's rules decide
// against its maps: each write sees the effects of the writes before it.
// A single write is a group of one; a batch of 1000 costs about as many
// round trips as one write.
import type {
  AdmissionPolicy,
  BatchItem,
  CapabilityBinding,
  CapabilityDefinition,
  ConnectorInstance,
  ConnectorType,
  ConnectorVersion,
} from '../../../contract/records.ts';
import type { Circuit } from '../../domain/circuit.ts';
import { bindingKeyOf } from '../../domain/rules/binding.ts';
import { fromTimestamp } from '../../domain/time.ts';
import { run, type Db } from './database.ts';
import {
  bindingOf,
  circuitOf,
  instanceOf,
  policyOf,
  provisionOf,
  typeOf,
  versionOf,
  type BindingRow,
  type InstanceRow,
  type PolicyRow,
  type ReplicaRow,
  type TypeRow,
  type VersionRow,
} from './rows.ts';
import { sql } from './sql.ts';
import type { ReplicaProvision } from '../../../contract/records.ts';

export interface DraftVersion {
  row: VersionRow;
  capabilityIds: ReadonlySet<string>;
  /** Set for versions admitted in this draft. */
  admitted?: ConnectorVersion;
}

export interface DraftReplica {
  provision: ReplicaProvision;
  active: number;
  circuit: Circuit;
}

export interface DraftBinding {
  record: CapabilityBinding;
  scopeKey: string;
}

const str = (v: unknown): v is string => typeof v === 'string';
const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});
const ownerOfString = (typeId: string, version: string) => `version\u001f${typeId}\u001f${version}`;
const ownerOfArtifact = (digest: string) => `artifact\u001f${digest}`;

/** A map whose every lookup must have been loaded first: a miss is a defect, not an absent record. */
class Loaded<V> {
  private readonly map = new Map<string, V | undefined>();
  get(key: unknown): V | undefined {
    if (!str(key)) return undefined;
    if (!this.map.has(key)) throw new Error(`write draft read ${key} without loading it`);
    return this.map.get(key);
  }
  has(key: string): boolean {
    return this.map.has(key);
  }
  set(key: string, value: V | undefined): void {
    this.map.set(key, value);
  }
  /** Marks keys as looked up (absent unless a row arrives). */
  expect(keys: Iterable<string>): void {
    for (const k of keys) if (!this.map.has(k)) this.map.set(k, undefined);
  }
}

export class WriteDraft {
  readonly types = new Loaded<ConnectorType>();
  readonly versions = new Loaded<DraftVersion>();
  /** Version id owning a (type, version string) or an artifact digest. */
  readonly versionOwners = new Loaded<string>();
  readonly definitions = new Loaded<CapabilityDefinition>();
  readonly instances = new Loaded<ConnectorInstance>();
  readonly bindings = new Loaded<DraftBinding>();
  /** Enabled bindings per instance, for instances whose rollout is checked. */
  readonly enabledBindings = new Loaded<Map<string, CapabilityBinding>>();
  readonly policies = new Loaded<AdmissionPolicy>();
  readonly replicas = new Loaded<DraftReplica>();

  readonly staged = {
    types: new Set<string>(),
    versions: new Set<string>(),
    versionStatus: new Set<string>(),
    definitions: new Map<string, number>(),
    instances: new Set<string>(),
    bindings: new Set<string>(),
    policies: new Set<string>(),
    newReplicas: new Set<string>(),
    replicaHealth: new Set<string>(),
  };
  catalogChanged = false;

  definition = (capabilityId: string): CapabilityDefinition => {
    const d = this.definitions.get(capabilityId);
    if (!d) throw new Error(`capability definition ${capabilityId} is missing`);
    return d;
  };

  versionRecord(v: DraftVersion): ConnectorVersion {
    return v.admitted ?? versionOf(v.row, this.definition);
  }

  /**
   * Loads every row the items can read. Catalog rows come through `catalog`
   * (under the exclusive publication lock when the items write the catalog);
   * replicas through `lifecycle`, locked for the rest of its transaction.
   */
  async preload(items: readonly unknown[], catalog: Db, lifecycle: Db | undefined): Promise<void> {
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
    await this.loadTypes(catalog, want.types);
    await this.loadInstances(catalog, want.instances);
    // A binding is checked against its instance's current version.
    for (const id of want.instances) {
      const instance = this.instances.get(id);
      if (instance) want.versions.add(instance.version_id);
    }
    await this.loadVersions(catalog, want.versions);
    for (const id of want.versions) for (const c of this.versions.get(id)?.capabilityIds ?? []) want.definitions.add(c);
    await this.loadOwners(catalog, want.ownerPairs, want.artifacts);
    await this.loadDefinitions(catalog, want.definitions);
    await this.loadBindings(catalog, want.bindingKeys, want.rollouts);
    await this.loadPolicies(catalog, want.policies);
    if (want.replicas.size > 0) {
      if (!lifecycle) throw new Error('replica writes need a data-plane transaction');
      await this.loadReplicas(lifecycle, want.replicas);
    }
  }

  private async loadTypes(db: Db, ids: Set<string>): Promise<void> {
    if (ids.size === 0) return;
    this.types.expect(ids);
    for (const row of await run<TypeRow>(db, sql('load-types'), [[...ids]])) this.types.set(row.type_id, typeOf(row));
  }

  private async loadInstances(db: Db, ids: Set<string>): Promise<void> {
    if (ids.size === 0) return;
    this.instances.expect(ids);
    for (const row of await run<InstanceRow>(db, sql('load-instances'), [[...ids]])) this.instances.set(row.instance_id, instanceOf(row));
  }

  private async loadVersions(db: Db, ids: Set<string>): Promise<void> {
    if (ids.size === 0) return;
    this.versions.expect(ids);
    for (const row of await run<VersionRow>(db, sql('load-versions'), [[...ids]])) {
      this.versions.set(row.version_id, { row, capabilityIds: new Set(row.capability_ids) });
    }
  }

  private async loadOwners(db: Db, pairs: Array<[string, string]>, artifacts: Set<string>): Promise<void> {
    if (pairs.length === 0 && artifacts.size === 0) return;
    this.versionOwners.expect(pairs.map(([t, v]) => ownerOfString(t, v)));
    this.versionOwners.expect([...artifacts].map(ownerOfArtifact));
    const rows = await run<{ version_id: string; type_id: string; version: string; artifact_digest: string }>(db, sql('load-version-owners'), [
      pairs.map((p) => p[0]),
      pairs.map((p) => p[1]),
      [...artifacts],
    ]);
    for (const row of rows) {
      this.versionOwners.set(ownerOfString(row.type_id, row.version), row.version_id);
      this.versionOwners.set(ownerOfArtifact(row.artifact_digest), row.version_id);
    }
  }

  private async loadDefinitions(db: Db, ids: Set<string>): Promise<void> {
    const missing = [...ids].filter((id) => !this.definitions.has(id));
    if (missing.length === 0) return;
    this.definitions.expect(missing);
    for (const row of await run<{ capability_id: string; definition: CapabilityDefinition }>(db, sql('load-definitions'), [missing])) {
      this.definitions.set(row.capability_id, row.definition);
    }
  }

  private async loadBindings(db: Db, keys: Map<string, [string, string, string]>, rollouts: Set<string>): Promise<void> {
    if (keys.size > 0) {
      this.bindings.expect(keys.keys());
      const parts = [...keys.values()];
      const rows = await run<BindingRow>(db, sql('load-bindings'), [parts.map((p) => p[0]), parts.map((p) => p[1]), parts.map((p) => p[2])]);
      for (const row of rows) this.bindings.set(bindingKeyOf(row), { record: bindingOf(row), scopeKey: row.scope_key });
    }
    if (rollouts.size > 0) {
      for (const id of rollouts) this.enabledBindings.set(id, new Map());
      for (const row of await run<BindingRow>(db, sql('load-bound-capabilities'), [[...rollouts]])) {
        this.enabledBindings.get(row.instance_id)!.set(bindingKeyOf(row), bindingOf(row));
      }
    }
  }

  private async loadPolicies(db: Db, refs: Set<string>): Promise<void> {
    if (refs.size === 0) return;
    this.policies.expect(refs);
    for (const row of await run<PolicyRow>(db, sql('load-policies'), [[...refs]])) this.policies.set(row.policy_ref, policyOf(row));
  }

  private async loadReplicas(db: Db, ids: Set<string>): Promise<void> {
    this.replicas.expect(ids);
    await run(db, sql('lock-replica-ids'), [[...ids].sort()]);
    for (const row of await run<ReplicaRow>(db, sql('lock-replicas'), [[...ids]])) {
      this.replicas.set(row.replica_id, { provision: provisionOf(row), active: row.active_assignments, circuit: circuitOf(row) });
    }
  }

  // ---- staging ---------------------------------------------------------------

  putType(t: ConnectorType): void {
    this.types.set(t.id, t);
    this.staged.types.add(t.id);
    this.catalogChanged = true;
  }

  admitVersion(v: ConnectorVersion, newDefinitions: Array<{ definition: CapabilityDefinition; size: number }>): void {
    for (const { definition, size } of newDefinitions) {
      this.definitions.set(definition.capability.id, definition);
      this.staged.definitions.set(definition.capability.id, size);
    }
    const capabilityIds = v.manifest.capabilities.map((c) => c.id);
    const row: VersionRow = {
      version_id: v.id,
      type_id: v.connector_type_id,
      version: v.version,
      status: v.status,
      manifest_digest: v.manifest_digest,
      attestation: v.attestation,
      supply_chain_qualified: v.supply_chain_qualified,
      admitted_at_ms: fromTimestamp(v.admitted_at),
      capability_ids: capabilityIds,
      profile_ids: v.manifest.profiles,
    };
    this.versions.set(v.id, { row, capabilityIds: new Set(capabilityIds), admitted: v });
    this.versionOwners.set(ownerOfString(v.connector_type_id, v.version), v.id);
    this.versionOwners.set(ownerOfArtifact(v.attestation.artifact_digest), v.id);
    this.staged.versions.add(v.id);
    this.catalogChanged = true;
  }

  setVersionStatus(v: DraftVersion, status: ConnectorVersion['status']): void {
    v.row = { ...v.row, status };
    if (v.admitted) v.admitted = { ...v.admitted, status };
    if (!this.staged.versions.has(v.row.version_id)) this.staged.versionStatus.add(v.row.version_id);
    this.catalogChanged = true;
  }

  putInstance(i: ConnectorInstance): void {
    this.instances.set(i.id, i);
    if (!this.enabledBindings.has(i.id)) this.enabledBindings.set(i.id, new Map());
    this.staged.instances.add(i.id);
    this.catalogChanged = true;
  }

  putBinding(b: CapabilityBinding, scopeKey: string): void {
    const key = bindingKeyOf(b);
    this.bindings.set(key, { record: b, scopeKey: this.bindings.get(key)?.scopeKey ?? scopeKey });
    if (this.enabledBindings.has(b.instance_id)) {
      const enabled = this.enabledBindings.get(b.instance_id)!;
      if (b.enabled) enabled.set(key, b);
      else enabled.delete(key);
    }
    this.staged.bindings.add(key);
    this.catalogChanged = true;
  }

  putPolicy(p: AdmissionPolicy): void {
    this.policies.set(p.policy_ref, p);
    this.staged.policies.add(p.policy_ref);
    this.catalogChanged = true;
  }

  provisionReplica(r: DraftReplica): void {
    this.replicas.set(r.provision.id, r);
    this.staged.newReplicas.add(r.provision.id);
  }

  reportHealth(id: string, r: DraftReplica): void {
    this.replicas.set(id, r);
    if (!this.staged.newReplicas.has(id)) this.staged.replicaHealth.add(id);
  }

  get hasLifecycleChanges(): boolean {
    return this.staged.newReplicas.size > 0 || this.staged.replicaHealth.size > 0;
  }
}
