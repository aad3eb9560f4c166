// The RegistryStore on PostgreSQL: the memory store's behavioural twin over
// normalized tables, with a control pool for catalog writes and a data pool
// for everything else (none of the catalog tables is writable by the data
// role). Every database failure is STORAGE_UNAVAILABLE, never a success.
import type pg from 'pg';
import type { ScopeKind } from '../../../contract/errors.ts';
import type {
  AdmissionCounter,
  AdmissionPolicy,
  BatchItem,
  BatchResult,
  CapabilityBinding,
  CapabilityDefinition,
  CapabilityPage,
  CatalogContext,
  CatalogQuery,
  ConnectorInstance,
  ConnectorReplica,
  ConnectorType,
  ConnectorVersion,
  FleetStatus,
  HealthReport,
  LeaseExpiryResult,
  RegistryLimits,
  ReplicaProvision,
  ResolveRequest,
  ResolvedCapability,
  RouteAssignment,
  RouteView,
  SettlementOutcome,
  SettlementResult,
  VersionAdmission,
  VersionStatus,
  WriteResult,
} from '../../../contract/records.ts';
import type { ReferenceChoices } from '../../domain/choices.ts';
import { circuitView } from '../../domain/circuit.ts';
import type { FenceTokenSource } from '../../domain/fence-token.ts';
import type { Clock } from '../../domain/time.ts';
import { assertShape } from '../../domain/validation.ts';
import type { RegistryStore } from '../registry-store.ts';
import { AdminWrites } from './admin-writes.ts';
import { CatalogReader } from './catalog-reads.ts';
import { queueOf, read } from './database.ts';
import { expireLeases, fleetStatus } from './fleet.ts';
import { ResolveTurns } from './resolve-turns.ts';
import { EligibleChains } from './route-selection.ts';
import * as routing from './routing.ts';
import { resolveKnowingLostCommits, settleKnowingLostCommits } from './lost-commit.ts';
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

export interface PostgresStoreParts {
  control: pg.Pool | undefined;
  data: pg.Pool;
  limits: RegistryLimits;
  clock: Clock;
  fenceTokens: FenceTokenSource;
  choices: ReferenceChoices;
  /** Runs after the pools end (e.g. stops an embedded server). */
  onClose?: () => Promise<void>;
}

export class PostgresStore implements RegistryStore {
  readonly kind = 'postgres' as const;
  readonly limits: RegistryLimits;
  private readonly admin: AdminWrites;
  private readonly catalog: CatalogReader;
  private readonly routing: routing.RoutingContext;

  constructor(private readonly parts: PostgresStoreParts) {
    this.limits = parts.limits;
    this.admin = new AdminWrites({
      control: parts.control,
      data: parts.data,
      limits: parts.limits,
      clock: parts.clock,
      choices: parts.choices,
    });
    this.catalog = new CatalogReader(parts.data, parts.limits, parts.choices);
    this.routing = {
      data: parts.data,
      clock: parts.clock,
      fenceTokens: parts.fenceTokens,
      choices: parts.choices,
      eligible: new EligibleChains(),
      turns: new ResolveTurns(queueOf(parts.data)),
    };
  }

  /** Whether this process holds catalog credentials (false: data plane only). */
  get hasControlPlane(): boolean {
    return this.parts.control !== undefined;
  }

  // ---- catalog ------------------------------------------------------------

  getCapability(capabilityId: string, ctx: CatalogContext): Promise<ResolvedCapability | null> {
    return this.catalog.get(capabilityId, ctx);
  }

  queryCatalog(query: CatalogQuery, ctx: CatalogContext): Promise<CapabilityPage> {
    return this.catalog.query(query, ctx);
  }

  async catalogRevision(): Promise<number> {
    return (await read<{ revision: number }>(this.parts.data, sql('read-revision')))[0]!.revision;
  }

  // ---- routing ------------------------------------------------------------

  resolve(tenantId: string, request: ResolveRequest): Promise<RouteView> {
    const lookUp = () => routing.route(this.routing, tenantId, request.action_id);
    return resolveKnowingLostCommits(tenantId, request, () => routing.resolve(this.routing, tenantId, request), lookUp);
  }

  route(tenantId: string, actionId: string): Promise<RouteView | null> {
    return routing.route(this.routing, tenantId, actionId);
  }

  settle(tenantId: string, actionId: string, assignment: RouteAssignment, outcome: SettlementOutcome): Promise<SettlementResult> {
    const lookUp = () => routing.route(this.routing, tenantId, actionId);
    return settleKnowingLostCommits(assignment, () => routing.settle(this.routing, tenantId, actionId, assignment, outcome), lookUp);
  }

  // ---- reader -------------------------------------------------------------

  async getConnectorType(id: string): Promise<ConnectorType | null> {
    assertShape<string>('TypeId', id);
    const [row] = await read<TypeRow>(this.parts.data, sql('load-types'), [[id]]);
    return row ? typeOf(row) : null;
  }

  async getVersion(id: string): Promise<ConnectorVersion | null> {
    assertShape<string>('VersionId', id);
    const [row] = await read<VersionRow>(this.parts.data, sql('load-versions'), [[id]]);
    if (!row) return null;
    const definitions = new Map(
      (
        await read<{ capability_id: string; definition: CapabilityDefinition }>(this.parts.data, sql('load-definitions'), [
          row.capability_ids,
        ])
      ).map((d) => [d.capability_id, d.definition]),
    );
    return versionOf(row, (c) => definitions.get(c)!);
  }

  async getInstance(id: string): Promise<ConnectorInstance | null> {
    assertShape<string>('InstanceId', id);
    const [row] = await read<InstanceRow>(this.parts.data, sql('load-instances'), [[id]]);
    return row ? instanceOf(row) : null;
  }

  async getBinding(tenantId: string, capabilityId: string, instanceId: string): Promise<CapabilityBinding | null> {
    assertShape<string>('TenantId', tenantId);
    assertShape<string>('CapabilityId', capabilityId);
    assertShape<string>('InstanceId', instanceId);
    const [row] = await read<BindingRow>(this.parts.data, sql('load-bindings'), [[tenantId], [capabilityId], [instanceId]]);
    return row ? bindingOf(row) : null;
  }

  async getAdmissionPolicy(policyRef: string): Promise<AdmissionPolicy | null> {
    assertShape<string>('PolicyRef', policyRef);
    const [row] = await read<PolicyRow>(this.parts.data, sql('load-policies'), [[policyRef]]);
    return row ? policyOf(row) : null;
  }

  async getReplica(id: string): Promise<ConnectorReplica | null> {
    assertShape<string>('ReplicaId', id);
    const [row] = await read<ReplicaRow>(this.parts.data, sql('load-replicas'), [[id]]);
    if (!row) return null;
    return {
      ...provisionOf(row),
      active_assignments: row.active_assignments,
      circuit: circuitView(circuitOf(row), this.parts.clock(), this.parts.choices),
    };
  }

  async getAdmissionCounter(kind: ScopeKind, key: string): Promise<AdmissionCounter> {
    assertShape<string>('ScopeKind', kind);
    assertShape<string>('ScopeKey', key);
    const [row] = await read<{ active: number }>(this.parts.data, sql('read-counter'), [kind, key]);
    return { kind, key, active: row?.active ?? 0 };
  }

  // ---- administration -------------------------------------------------------

  putConnectorType(record: ConnectorType): Promise<WriteResult<ConnectorType>> {
    return this.admin.single({ op: 'put_connector_type', record }, (a) => a.putConnectorType(record));
  }

  setConnectorTypeEnabled(id: string, enabled: boolean): Promise<WriteResult<ConnectorType>> {
    return this.admin.single({ op: 'set_connector_type_enabled', id, enabled }, (a) => a.setConnectorTypeEnabled(id, enabled));
  }

  admitVersion(record: VersionAdmission): Promise<WriteResult<ConnectorVersion>> {
    return this.admin.single({ op: 'admit_version', record }, (a) => a.admitVersion(record));
  }

  setVersionStatus(id: string, status: VersionStatus): Promise<WriteResult<ConnectorVersion>> {
    return this.admin.single({ op: 'set_version_status', id, status }, (a) => a.setVersionStatus(id, status));
  }

  putInstance(record: ConnectorInstance): Promise<WriteResult<ConnectorInstance>> {
    return this.admin.single({ op: 'put_instance', record }, (a) => a.putInstance(record));
  }

  putBinding(record: CapabilityBinding): Promise<WriteResult<CapabilityBinding>> {
    return this.admin.single({ op: 'put_binding', record }, (a) => a.putBinding(record));
  }

  putAdmissionPolicy(record: AdmissionPolicy): Promise<WriteResult<AdmissionPolicy>> {
    return this.admin.single({ op: 'put_admission_policy', record }, (a) => a.putAdmissionPolicy(record));
  }

  provisionReplica(record: ReplicaProvision): Promise<WriteResult<ConnectorReplica>> {
    return this.admin.single({ op: 'provision_replica', record }, (a) => a.provisionReplica(record));
  }

  reportHealth(id: string, report: HealthReport): Promise<WriteResult<ConnectorReplica>> {
    return this.admin.single({ op: 'report_health', id, report }, (a) => a.reportHealth(id, report));
  }

  applyBatch(items: BatchItem[]): Promise<BatchResult> {
    return this.admin.batch(items);
  }

  // ---- fleet ----------------------------------------------------------------

  expireLeases(limit: number): Promise<LeaseExpiryResult> {
    return expireLeases(this.parts.data, limit, this.parts.clock(), this.limits, this.parts.choices.expiredLease);
  }

  fleetStatus(): Promise<FleetStatus> {
    return fleetStatus(this.parts.data, this.parts.clock());
  }

  async ready(): Promise<boolean> {
    try {
      await this.parts.data.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  private closing: Promise<void> | undefined;

  /** Ends both pools (and an embedded server the store started); a second call waits for the first. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([this.parts.control?.end(), this.parts.data.end()]);
      await this.parts.onClose?.();
    })();
    return this.closing;
  }
}
