// The deterministic in-memory registry: the embedded default and the
// neighbour of every property model. Writes decide with the shared domain
// rules, then apply; nothing is applied before every check has passed, so a
// refused call leaves the state exactly as it was ([error-changes-nothing]).
import type { ScopeKind } from '../../../contract/errors.ts';
import {
  DEFAULT_LIMITS,
  type AdmissionCounter,
  type AdmissionPolicy,
  type BatchItem,
  type BatchResult,
  type CapabilityBinding,
  type CapabilityPage,
  type CatalogContext,
  type CatalogQuery,
  type ConnectorInstance,
  type ConnectorReplica,
  type ConnectorType,
  type ConnectorVersion,
  type FleetStatus,
  type HealthReport,
  type LeaseExpiryResult,
  type RegistryLimits,
  type ReplicaProvision,
  type ResolveRequest,
  type ResolvedCapability,
  type RouteAssignment,
  type RouteView,
  type SettlementOutcome,
  type SettlementResult,
  type VersionAdmission,
  type VersionStatus,
  type WriteOutcome,
  type WriteResult,
} from '../../../contract/records.ts';
import { counterKey } from '../../domain/admission.ts';
import { referenceChoices, type ReferenceChoices } from '../../domain/choices.ts';
import { circuitView } from '../../domain/circuit.ts';
import { bindingScopeKey, tiebreakHash } from '../../domain/digest.ts';
import { fenceTokenSource, type FenceTokenSource } from '../../domain/fence-token.ts';
import { validateLimits } from '../../domain/limits.ts';
import { decidePutAdmissionPolicy } from '../../domain/rules/admission-policy.ts';
import { bindingKeyOf, decidePutBinding } from '../../domain/rules/binding.ts';
import { decidePutConnectorType, decideSetTypeEnabled } from '../../domain/rules/connector-type.ts';
import { decidePutInstance } from '../../domain/rules/instance.ts';
import { decideProvisionReplica, decideReportHealth, healthOf } from '../../domain/rules/replica.ts';
import { decideAdmitVersion, decideSetVersionStatus } from '../../domain/rules/version.ts';
import { fromTimestamp, systemClock, toTimestamp, type Clock } from '../../domain/time.ts';
import { assertShape } from '../../domain/validation.ts';
import { applyBatchItems } from '../batch.ts';
import type { RegistryStore, StoreOptions } from '../registry-store.ts';
import { getCapability, queryCatalog } from './memory-catalog.ts';
import { expireLeases, fleetStatus } from './memory-fleet.ts';
import * as routing from './memory-routing.ts';
import { deepFreeze } from './memory-routing.ts';
import { MemoryState, StoredVersion, type StoredReplica } from './memory-state.ts';
import { NO_RACE_HOOKS } from '../race-hooks.ts';

/** A frozen deep copy: the caller keeps its object, the store keeps its own. */
function own<T>(record: T): T {
  return deepFreeze(structuredClone(record));
}

export class MemoryStore implements RegistryStore {
  readonly kind = 'memory' as const;
  readonly limits: RegistryLimits;
  private readonly state = new MemoryState();
  private readonly clock: Clock;
  private readonly fenceTokens: FenceTokenSource;
  private readonly choices: ReferenceChoices;

  constructor(options: StoreOptions = {}) {
    this.limits = validateLimits({ ...DEFAULT_LIMITS, ...options.limits });
    this.clock = options.clock ?? systemClock;
    this.choices = referenceChoices(options.choices);
    this.fenceTokens = options.fenceTokens ?? fenceTokenSource(this.choices.fenceTokens);
    this.routingDeps = {
      clock: this.clock,
      fenceTokens: this.fenceTokens,
      limits: this.limits,
      race: options.raceHooks ?? NO_RACE_HOOKS,
      choices: this.choices,
    };
  }

  private readonly routingDeps: routing.RoutingDeps;

  private result<T>(outcome: WriteOutcome, record: T): WriteResult<T> {
    if (outcome === 'applied') this.state.advanceRevision(this.choices.revisionStep);
    return { outcome, catalog_revision: this.state.revision, record };
  }

  private replicaView(r: StoredReplica): ConnectorReplica {
    const cursor = this.state.replicaCursor.at(r.row);
    return { ...r.provision, active_assignments: cursor.active, circuit: circuitView(cursor, this.clock(), this.choices) };
  }

  // ---- catalog ------------------------------------------------------------

  async getCapability(capabilityId: string, ctx: CatalogContext): Promise<ResolvedCapability | null> {
    assertShape<string>('CapabilityId', capabilityId);
    return getCapability(this.state, capabilityId, ctx);
  }

  async queryCatalog(query: CatalogQuery, ctx: CatalogContext): Promise<CapabilityPage> {
    return queryCatalog(this.state, query, ctx, this.limits, this.choices);
  }

  async catalogRevision(): Promise<number> {
    return this.state.revision;
  }

  // ---- routing ------------------------------------------------------------

  async resolve(tenantId: string, request: ResolveRequest): Promise<RouteView> {
    return routing.resolve(this.state, this.routingDeps, tenantId, request);
  }

  async route(tenantId: string, actionId: string): Promise<RouteView | null> {
    return routing.route(this.state, tenantId, actionId);
  }

  async settle(tenantId: string, actionId: string, assignment: RouteAssignment, outcome: SettlementOutcome): Promise<SettlementResult> {
    return routing.settle(this.state, this.routingDeps, tenantId, actionId, assignment, outcome);
  }

  // ---- reader -------------------------------------------------------------

  async getConnectorType(id: string): Promise<ConnectorType | null> {
    assertShape<string>('TypeId', id);
    return this.state.types.get(id) ?? null;
  }

  async getVersion(id: string): Promise<ConnectorVersion | null> {
    assertShape<string>('VersionId', id);
    return this.state.versions.get(id)?.record ?? null;
  }

  async getInstance(id: string): Promise<ConnectorInstance | null> {
    assertShape<string>('InstanceId', id);
    return this.state.instances.get(id) ?? null;
  }

  async getBinding(tenantId: string, capabilityId: string, instanceId: string): Promise<CapabilityBinding | null> {
    assertShape<string>('TenantId', tenantId);
    assertShape<string>('CapabilityId', capabilityId);
    assertShape<string>('InstanceId', instanceId);
    const key = bindingKeyOf({ tenant_id: tenantId, capability_id: capabilityId, instance_id: instanceId });
    return this.state.bindings.get(key)?.record ?? null;
  }

  async getAdmissionPolicy(policyRef: string): Promise<AdmissionPolicy | null> {
    assertShape<string>('PolicyRef', policyRef);
    return this.state.policies.get(policyRef) ?? null;
  }

  async getReplica(id: string): Promise<ConnectorReplica | null> {
    assertShape<string>('ReplicaId', id);
    const r = this.state.replicas.get(id);
    return r ? this.replicaView(r) : null;
  }

  async getAdmissionCounter(kind: ScopeKind, key: string): Promise<AdmissionCounter> {
    assertShape<string>('ScopeKind', kind);
    assertShape<string>('ScopeKey', key);
    return { kind, key, active: this.state.counter(counterKey(kind, key)) };
  }

  // ---- administration -------------------------------------------------------

  async putConnectorType(record: ConnectorType): Promise<WriteResult<ConnectorType>> {
    const outcome = decidePutConnectorType(record, this.state.types.get(record?.id));
    if (outcome === 'applied') this.state.types.set(record.id, own(record));
    return this.result(outcome, this.state.types.get(record.id)!);
  }

  async setConnectorTypeEnabled(id: string, enabled: boolean): Promise<WriteResult<ConnectorType>> {
    const existing = this.state.types.get(id);
    const outcome = decideSetTypeEnabled(id, enabled, existing);
    if (outcome === 'applied') this.state.types.set(id, own({ ...existing!, enabled }));
    return this.result(outcome, this.state.types.get(id)!);
  }

  async admitVersion(record: VersionAdmission): Promise<WriteResult<ConnectorVersion>> {
    const s = this.state;
    const decision = decideAdmitVersion(
      record,
      {
        existing: s.versions.get(record?.id)?.record,
        type: s.types.get(record?.connector_type_id),
        versionStringOwner: s.versionByTypeAndString.get(`${record?.connector_type_id}\u001f${record?.version}`),
        artifactOwner: s.versionByArtifact.get(record?.attestation?.artifact_digest),
        storedDefinition: (id) => s.definitions.get(id)?.definition,
      },
      this.limits,
      this.choices,
    );
    if (decision.outcome === 'applied') {
      for (const d of decision.definitions) {
        if (d.isNew)
          s.definitions.set(d.definition.capability.id, { id: d.definition.capability.id, definition: own(d.definition), size: d.size });
      }
      const stored: ConnectorVersion = { ...structuredClone(record), supply_chain_qualified: true, admitted_at: toTimestamp(this.clock()) };
      s.putVersion(new StoredVersion(deepFreeze(stored)));
    }
    return this.result(decision.outcome, s.versions.get(record.id)!.record);
  }

  async setVersionStatus(id: string, status: VersionStatus): Promise<WriteResult<ConnectorVersion>> {
    const stored = this.state.versions.get(id);
    const outcome = decideSetVersionStatus(id, status, stored?.record);
    if (outcome === 'applied') stored!.record = deepFreeze({ ...stored!.record, status });
    return this.result(outcome, this.state.versions.get(id)!.record);
  }

  async putInstance(record: ConnectorInstance): Promise<WriteResult<ConnectorInstance>> {
    const s = this.state;
    const version = s.versions.get(record?.version_id);
    const enabledBindingCapabilities = [...(s.bindingsByInstance.get(record?.id) ?? [])]
      .filter((b) => b.record.enabled)
      .map((b) => b.record.capability_id);
    const outcome = decidePutInstance(
      record,
      { existing: s.instances.get(record?.id), version, enabledBindingCapabilities },
      this.choices.writeRulesReversed,
    );
    if (outcome === 'applied') s.instances.set(record.id, own(record));
    return this.result(outcome, s.instances.get(record.id)!);
  }

  async putBinding(record: CapabilityBinding): Promise<WriteResult<CapabilityBinding>> {
    const s = this.state;
    const instance = s.instances.get(record?.instance_id);
    const key = record ? bindingKeyOf(record) : '';
    const outcome = decidePutBinding(record, {
      existing: s.bindings.get(key)?.record,
      instance,
      implemented: instance !== undefined && (s.versions.get(instance.version_id)?.implements(record.capability_id) ?? false),
      policyExists: record?.quota_policy_ref != null && s.policies.has(record.quota_policy_ref),
    });
    if (outcome === 'applied') s.putBinding(own(record), bindingScopeKey(record.tenant_id, record.capability_id, record.instance_id));
    return this.result(outcome, s.bindings.get(key)!.record);
  }

  async putAdmissionPolicy(record: AdmissionPolicy): Promise<WriteResult<AdmissionPolicy>> {
    const outcome = decidePutAdmissionPolicy(record, this.state.policies.get(record?.policy_ref));
    if (outcome === 'applied') this.state.policies.set(record.policy_ref, own(record));
    return this.result(outcome, this.state.policies.get(record.policy_ref)!);
  }

  async provisionReplica(record: ReplicaProvision): Promise<WriteResult<ConnectorReplica>> {
    const s = this.state;
    const existing = s.replicas.get(record?.id);
    const outcome = decideProvisionReplica(
      record,
      existing?.provision,
      s.instances.get(record?.instance_id),
      this.choices.reprovisionOriginal,
    );
    if (outcome === 'applied') {
      const provision = own(record);
      const row = s.replicaTable.add({
        id: provision.id,
        status: provision.status,
        leaseMs: fromTimestamp(provision.lease_expires_at),
        capacity: provision.capacity,
        hash: tiebreakHash(provision.id, this.choices.tiebreakSalt),
        version: s.versionIndex.get(provision.version_id)!,
        topology: provision.topology,
      });
      s.addReplica({ id: provision.id, row, provision });
    }
    return { outcome, catalog_revision: s.revision, record: this.replicaView(s.replicas.get(record.id)!) };
  }

  async reportHealth(id: string, report: HealthReport): Promise<WriteResult<ConnectorReplica>> {
    const r = this.state.replicas.get(id);
    const table = this.state.replicaTable;
    const outcome = decideReportHealth(id, report, r?.provision, r ? table.active(r.row) : 0);
    if (outcome === 'applied') {
      r!.provision = deepFreeze({ ...r!.provision, ...healthOf(report) });
      table.setHealth(r!.row, report.status, fromTimestamp(report.lease_expires_at), report.capacity);
    }
    return { outcome, catalog_revision: this.state.revision, record: this.replicaView(r!) };
  }

  async applyBatch(items: BatchItem[]): Promise<BatchResult> {
    const results = await applyBatchItems(this, items, this.limits.max_batch_items);
    return { catalog_revision: this.state.revision, results };
  }

  // ---- fleet ----------------------------------------------------------------

  async expireLeases(limit: number): Promise<LeaseExpiryResult> {
    return expireLeases(this.state, limit, this.clock(), this.limits, this.choices.expiredLease);
  }

  async fleetStatus(): Promise<FleetStatus> {
    return fleetStatus(this.state, this.clock());
  }

  async ready(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {}
}
