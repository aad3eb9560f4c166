// The administrator's writes decided against a write draft with the shared
// domain rules, in the same order of checks as the memory store. Nothing is
// staged before a rule has accepted the write, so a refused write leaves the
// draft as it was ([error-changes-nothing]).
import type {
  AdmissionPolicy,
  BatchItem,
  BatchResult,
  CapabilityBinding,
  ConnectorInstance,
  ConnectorReplica,
  ConnectorType,
  ConnectorVersion,
  HealthReport,
  RegistryLimits,
  ReplicaProvision,
  VersionAdmission,
  VersionStatus,
  WriteOutcome,
  WriteResult,
} from '../../../contract/records.ts';
import type { ReferenceChoices } from '../../domain/choices.ts';
import { circuitView, CLOSED_CIRCUIT } from '../../domain/circuit.ts';
import { bindingScopeKey } from '../../domain/digest.ts';
import { decidePutAdmissionPolicy } from '../../domain/rules/admission-policy.ts';
import { bindingKeyOf, decidePutBinding } from '../../domain/rules/binding.ts';
import { decidePutConnectorType, decideSetTypeEnabled } from '../../domain/rules/connector-type.ts';
import { decidePutInstance } from '../../domain/rules/instance.ts';
import { decideProvisionReplica, decideReportHealth, healthOf } from '../../domain/rules/replica.ts';
import { decideAdmitVersion, decideSetVersionStatus } from '../../domain/rules/version.ts';
import { storageUnavailable } from '../../../contract/registry-error.ts';
import { fromTimestamp, toTimestamp } from '../../domain/time.ts';
import type { RegistryAdministrator } from '../../../contract/target-port.ts';
import type { DraftReplica, WriteDraft } from './write-draft.ts';

export interface DraftAdminOptions {
  limits: RegistryLimits;
  nowMs: number;
  /** False for a data-plane-only store: catalog writes are refused. */
  catalogWrites: boolean;
  choices: ReferenceChoices;
}

/** A copy the caller cannot alter through its own reference. */
const own = <T>(record: T): T => structuredClone(record);

// Keys of WriteDraft.versionOwners; a malformed field has no key (and fails shape validation).
const versionKey = (typeId: unknown, version: unknown) =>
  typeof typeId === 'string' && typeof version === 'string' ? `version\u001f${typeId}\u001f${version}` : undefined;
const artifactKey = (digest: unknown) => (typeof digest === 'string' ? `artifact\u001f${digest}` : undefined);

export const CONTROL_PLANE_MISSING = 'control-plane credentials are not configured: this store is data-plane only';

/**
 * Results carry revision 0 until the group is flushed; the caller replaces
 * it with the revision the group committed at.
 */
export class DraftAdministrator implements RegistryAdministrator {
  constructor(
    private readonly draft: WriteDraft,
    private readonly options: DraftAdminOptions,
  ) {}

  private result<T>(outcome: WriteOutcome, record: T): WriteResult<T> {
    return { outcome, catalog_revision: 0, record };
  }

  private catalogWrite(): void {
    if (!this.options.catalogWrites) throw storageUnavailable(CONTROL_PLANE_MISSING);
  }

  replicaView(r: DraftReplica): ConnectorReplica {
    return { ...r.provision, active_assignments: r.active, circuit: circuitView(r.circuit, this.options.nowMs, this.options.choices) };
  }

  async putConnectorType(record: ConnectorType): Promise<WriteResult<ConnectorType>> {
    this.catalogWrite();
    const d = this.draft;
    const outcome = decidePutConnectorType(record, d.types.get(record?.id));
    if (outcome === 'applied') d.putType(own(record));
    return this.result(outcome, d.types.get(record.id)!);
  }

  async setConnectorTypeEnabled(id: string, enabled: boolean): Promise<WriteResult<ConnectorType>> {
    this.catalogWrite();
    const existing = this.draft.types.get(id);
    const outcome = decideSetTypeEnabled(id, enabled, existing);
    if (outcome === 'applied') this.draft.putType({ ...existing!, enabled });
    return this.result(outcome, this.draft.types.get(id)!);
  }

  async admitVersion(record: VersionAdmission): Promise<WriteResult<ConnectorVersion>> {
    this.catalogWrite();
    const d = this.draft;
    const existing = d.versions.get(record?.id);
    const decision = decideAdmitVersion(
      record,
      {
        existing: existing && d.versionRecord(existing),
        type: d.types.get(record?.connector_type_id),
        versionStringOwner: d.versionOwners.get(versionKey(record?.connector_type_id, record?.version)),
        artifactOwner: d.versionOwners.get(artifactKey(record?.attestation?.artifact_digest)),
        storedDefinition: (id) => d.definitions.get(id),
      },
      this.options.limits,
      this.options.choices,
    );
    if (decision.outcome === 'applied') {
      const stored: ConnectorVersion = { ...own(record), supply_chain_qualified: true, admitted_at: toTimestamp(this.options.nowMs) };
      d.admitVersion(
        stored,
        decision.definitions.filter((x) => x.isNew),
      );
    }
    return this.result(decision.outcome, d.versionRecord(d.versions.get(record.id)!));
  }

  async setVersionStatus(id: string, status: VersionStatus): Promise<WriteResult<ConnectorVersion>> {
    this.catalogWrite();
    const v = this.draft.versions.get(id);
    const outcome = decideSetVersionStatus(id, status, v && this.draft.versionRecord(v));
    if (outcome === 'applied') this.draft.setVersionStatus(v!, status);
    return this.result(outcome, this.draft.versionRecord(this.draft.versions.get(id)!));
  }

  async putInstance(record: ConnectorInstance): Promise<WriteResult<ConnectorInstance>> {
    this.catalogWrite();
    const d = this.draft;
    const v = d.versions.get(record?.version_id);
    const version = v && { connector_type_id: v.row.type_id, implements: (c: string) => v.capabilityIds.has(c) };
    const enabled = d.enabledBindings.get(record?.id);
    const enabledBindingCapabilities = [...(enabled?.values() ?? [])].map((b) => b.capability_id);
    const outcome = decidePutInstance(
      record,
      { existing: d.instances.get(record?.id), version, enabledBindingCapabilities },
      this.options.choices.writeRulesReversed,
    );
    if (outcome === 'applied') d.putInstance(own(record));
    return this.result(outcome, d.instances.get(record.id)!);
  }

  async putBinding(record: CapabilityBinding): Promise<WriteResult<CapabilityBinding>> {
    this.catalogWrite();
    const d = this.draft;
    const instance = d.instances.get(record?.instance_id);
    const key =
      typeof record?.tenant_id === 'string' && typeof record.capability_id === 'string' && typeof record.instance_id === 'string'
        ? bindingKeyOf(record)
        : undefined;
    const outcome = decidePutBinding(record, {
      existing: d.bindings.get(key)?.record,
      instance,
      implemented: instance !== undefined && (d.versions.get(instance.version_id)?.capabilityIds.has(record.capability_id) ?? false),
      policyExists: record?.quota_policy_ref != null && d.policies.get(record.quota_policy_ref) !== undefined,
    });
    if (outcome === 'applied') d.putBinding(own(record), bindingScopeKey(record.tenant_id, record.capability_id, record.instance_id));
    return this.result(outcome, d.bindings.get(key!)!.record);
  }

  async putAdmissionPolicy(record: AdmissionPolicy): Promise<WriteResult<AdmissionPolicy>> {
    this.catalogWrite();
    const outcome = decidePutAdmissionPolicy(record, this.draft.policies.get(record?.policy_ref));
    if (outcome === 'applied') this.draft.putPolicy(own(record));
    return this.result(outcome, this.draft.policies.get(record.policy_ref)!);
  }

  async provisionReplica(record: ReplicaProvision): Promise<WriteResult<ConnectorReplica>> {
    const d = this.draft;
    const existing = d.replicas.get(record?.id);
    const outcome = decideProvisionReplica(
      record,
      existing?.provision,
      d.instances.get(record?.instance_id),
      this.options.choices.reprovisionOriginal,
    );
    if (outcome === 'applied') d.provisionReplica({ provision: own(record), active: 0, circuit: CLOSED_CIRCUIT });
    return this.result(outcome, this.replicaView(d.replicas.get(record.id)!));
  }

  async reportHealth(id: string, report: HealthReport): Promise<WriteResult<ConnectorReplica>> {
    const d = this.draft;
    const r = d.replicas.get(id);
    const outcome = decideReportHealth(id, report, r?.provision, r?.active ?? 0);
    if (outcome === 'applied') {
      const provision = { ...r!.provision, ...healthOf(report) };
      // Stored leases are whole milliseconds; the wire form is already exact to the millisecond.
      provision.lease_expires_at = toTimestamp(fromTimestamp(provision.lease_expires_at));
      d.reportHealth(id, { ...r!, provision });
    }
    return this.result(outcome, this.replicaView(d.replicas.get(id)!));
  }

  applyBatch(_items: BatchItem[]): Promise<BatchResult> {
    throw new Error('a draft applies single writes; the store applies batches');
  }
}
