// The rows a group of writes needs, loaded in a few bulk reads, and the
// changes the writes decide, flushed in a few bulk statements. The domain
// rules decide against this draft exactly as the memory store's rules decide
// against its maps: each write sees the effects of the writes before it.
// A single write is a group of one; a batch of 1000 costs about as many
// round trips as one write. Loading is in draft-preload.ts, writing in
// draft-flush.ts.
import type {
  AdmissionPolicy,
  CapabilityBinding,
  CapabilityDefinition,
  ConnectorInstance,
  ConnectorType,
  ConnectorVersion,
  ReplicaProvision,
} from '../../../contract/records.ts';
import type { Circuit } from '../../domain/circuit.ts';
import { bindingKeyOf } from '../../domain/rules/binding.ts';
import { fromTimestamp } from '../../domain/time.ts';
import { versionOf, type VersionRow } from './rows.ts';

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
/** Keys of WriteDraft.versionOwners. */
export const ownerOfString = (typeId: string, version: string) => `version\u001f${typeId}\u001f${version}`;
export const ownerOfArtifact = (digest: string) => `artifact\u001f${digest}`;

/** A map whose every lookup must have been loaded first: a miss is a defect, not an absent record. */
export class Loaded<V> {
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
