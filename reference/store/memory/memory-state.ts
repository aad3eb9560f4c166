// The records of the memory store and the indexes that keep every hot read
// proportional to its own candidates, never to the fleet: bindings by
// (tenant, capability), replicas by instance, reserved routes by replica.
import type {
  AdmissionPolicy,
  AdmissionReservation,
  CapabilityBinding,
  ConnectorInstance,
  ConnectorType,
  ConnectorVersion,
  ReplicaProvision,
  RouteAssignment,
  ScopeReservation,
  SettlementOutcome,
} from '../../../contract/records.ts';
import type { VisibleDefinition } from '../../domain/catalog.ts';
import type { VersionFacts } from '../../domain/eligibility.ts';
import { compareBytes } from '../../domain/ordering.ts';
import { bindingKeyOf } from '../../domain/rules/binding.ts';
import { ReplicaCursor, ReplicaTable } from './replica-table.ts';

/** A stored version with its capability and profile sets, for O(1) checks. */
export class StoredVersion implements VersionFacts {
  readonly capabilityIds: ReadonlySet<string>;
  readonly profiles: ReadonlySet<string>;

  constructor(public record: ConnectorVersion) {
    this.capabilityIds = new Set(record.manifest.capabilities.map((c) => c.id));
    this.profiles = new Set(record.manifest.profiles);
  }

  get status() {
    return this.record.status;
  }
  get supply_chain_qualified() {
    return this.record.supply_chain_qualified;
  }
  get connector_type_id() {
    return this.record.connector_type_id;
  }
  implements(capabilityId: string): boolean {
    return this.capabilityIds.has(capabilityId);
  }
  declaresProfile(profile: string): boolean {
    return this.profiles.has(profile);
  }
}

export interface StoredBinding {
  record: CapabilityBinding;
  scopeKey: string;
}

/** A replica: its provisioned record, and its row of live state in the replica table. */
export interface StoredReplica {
  id: string;
  row: number;
  /** The provisioned record with its current health fields. */
  provision: ReplicaProvision;
}

/**
 * One binding of a (tenant, capability) whose whole chain is valid at the
 * current revision. The chain only changes with catalog writes, which advance
 * the revision and drop the cache.
 */
export interface RouteChain {
  binding: StoredBinding;
  instance: ConnectorInstance;
  version: StoredVersion;
  /** The binding's policy; its limits are pinned into every new route of this chain. */
  policy: AdmissionPolicy;
  /** Built once per chain and shared, frozen, by every assignment it creates. */
  admission: AdmissionReservation;
}

/**
 * The replicas that may serve a (tenant, capability), in chain priority
 * order, as parallel arrays: a candidate scan reads flat arrays and one row
 * of the replica table, nothing else. Built on first use and dropped when the
 * revision advances or a replica is provisioned.
 */
export interface RouteCandidates {
  chains: RouteChain[];
  /** Per candidate: its row in the replica table, its chain, and that chain's priority. */
  rows: Int32Array;
  chainOf: Int32Array;
  priority: Int32Array;
  /** Per candidate: its instance's id and current version's id (the version record's own string). */
  instanceId: string[];
  versionId: string[];
}

/** One capability of a catalog view and the versions that make it visible. */
export interface CatalogEntry {
  visible: VisibleDefinition;
  versions: StoredVersion[];
}

export interface StoredRoute {
  assignment: RouteAssignment;
  reserved: boolean;
  lastSettlement: SettlementOutcome | null;
  /** The scopes the last attempt reserved; held while `reserved`. */
  scopes: readonly ScopeReservation[];
}

function sortedInsert<T>(list: T[], item: T, compare: (a: T, b: T) => number): void {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(list[mid]!, item) <= 0) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, item);
}

function byPriorityThenInstance(a: StoredBinding, b: StoredBinding): number {
  return a.record.priority - b.record.priority || compareBytes(a.record.instance_id, b.record.instance_id);
}

export class MemoryState {
  revision = 0;
  readonly types = new Map<string, ConnectorType>();
  readonly versions = new Map<string, StoredVersion>();
  readonly versionByTypeAndString = new Map<string, string>();
  readonly versionByArtifact = new Map<string, string>();
  readonly definitions = new Map<string, VisibleDefinition>();
  /** Capability id → versions that declare it, for the internal catalog view. */
  readonly versionsByCapability = new Map<string, Set<string>>();
  readonly instances = new Map<string, ConnectorInstance>();
  readonly bindings = new Map<string, StoredBinding>();
  readonly bindingsByTenantCapability = new Map<string, StoredBinding[]>();
  readonly bindingsByTenant = new Map<string, Set<StoredBinding>>();
  readonly bindingsByInstance = new Map<string, Set<StoredBinding>>();
  readonly policies = new Map<string, AdmissionPolicy>();
  readonly replicas = new Map<string, StoredReplica>();
  readonly replicaTable = new ReplicaTable();
  /** Version ids by their index in the replica table's VERSION column. */
  readonly versionIds: string[] = [];
  /** One cursor over the replica table, moved from row to row by scans. */
  readonly replicaCursor = new ReplicaCursor(this.replicaTable, this.versionIds);
  readonly versionIndex = new Map<string, number>();
  readonly replicasByInstance = new Map<string, StoredReplica[]>();
  readonly routes = new Map<string, StoredRoute>();
  /**
   * Every route holding a reservation. Lease expiry walks it to find the
   * routes of the replicas it expires; one set keeps the hot add and delete
   * of every resolve and settle on a single, cache-friendly structure.
   */
  readonly reserved = new Set<StoredRoute>();
  readonly counters = new Map<string, number>();
  /** Catalog views by context, valid for one revision. */
  readonly catalogViews = new Map<string, CatalogEntry[]>();
  /** Valid chains and their candidates by tenant, then capability, for one revision. */
  readonly routeCandidates = new Map<string, Map<string, RouteCandidates>>();

  /** [revision-advances]: strictly, by the registry's own step. */
  advanceRevision(step: number): void {
    this.revision += step;
    this.catalogViews.clear();
    this.routeCandidates.clear();
  }

  putVersion(v: StoredVersion): void {
    const r = v.record;
    this.versions.set(r.id, v);
    if (!this.versionIndex.has(r.id)) {
      this.versionIndex.set(r.id, this.versionIds.length);
      this.versionIds.push(r.id);
    }
    this.versionByTypeAndString.set(`${r.connector_type_id}\u001f${r.version}`, r.id);
    this.versionByArtifact.set(r.attestation.artifact_digest, r.id);
    for (const id of v.capabilityIds) {
      let set = this.versionsByCapability.get(id);
      if (!set) this.versionsByCapability.set(id, (set = new Set()));
      set.add(r.id);
    }
  }

  putBinding(record: CapabilityBinding, scopeKey: string): void {
    const key = bindingKeyOf(record);
    const previous = this.bindings.get(key);
    const stored: StoredBinding = { record, scopeKey: previous?.scopeKey ?? scopeKey };
    const tcKey = `${record.tenant_id}\u001f${record.capability_id}`;
    let list = this.bindingsByTenantCapability.get(tcKey);
    if (!list) this.bindingsByTenantCapability.set(tcKey, (list = []));
    if (previous) {
      list.splice(list.indexOf(previous), 1);
      this.bindingsByTenant.get(record.tenant_id)!.delete(previous);
      this.bindingsByInstance.get(record.instance_id)!.delete(previous);
    }
    sortedInsert(list, stored, byPriorityThenInstance);
    this.bindings.set(key, stored);
    let byTenant = this.bindingsByTenant.get(record.tenant_id);
    if (!byTenant) this.bindingsByTenant.set(record.tenant_id, (byTenant = new Set()));
    byTenant.add(stored);
    let byInstance = this.bindingsByInstance.get(record.instance_id);
    if (!byInstance) this.bindingsByInstance.set(record.instance_id, (byInstance = new Set()));
    byInstance.add(stored);
  }

  /** The replica list of an instance; the same array for the instance's whole life. */
  replicaList(instanceId: string): StoredReplica[] {
    let list = this.replicasByInstance.get(instanceId);
    if (!list) this.replicasByInstance.set(instanceId, (list = []));
    return list;
  }

  addReplica(r: StoredReplica): void {
    this.replicas.set(r.id, r);
    this.replicaList(r.provision.instance_id).push(r);
    this.routeCandidates.clear();
  }

  counter(key: string): number {
    return this.counters.get(key) ?? 0;
  }
}
