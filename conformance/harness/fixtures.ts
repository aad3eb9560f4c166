// Building blocks every case uses to make its own world over HTTP: records
// from the contract's builders with run-scoped ids, a routable fleet in one
// call, and the reads cases repeat (replica state, counters, routes, the
// catalog revision). A setup step that the registry refuses is a failure:
// the request was valid, so refusing it breaks the contract.
import { setTimeout as delay } from 'node:timers/promises';
import type { ScopeKind } from '../../contract/errors.ts';
import { recordBuilders } from '../../contract/builders.js';
import { sha256Hex } from '../../contract/digest.ts';
import type {
  AdmissionPolicy,
  Capability,
  CapabilityBinding,
  ConnectorInstance,
  ConnectorReplica,
  ConnectorType,
  RegistryLimits,
  ReplicaProvision,
  RouteView,
  SettlementOutcome,
  SettlementResult,
  Topology,
  TopologyPreference,
  VersionAdmission,
} from '../../contract/records.ts';
import { TransportError } from '../../client/http-transport.ts';
import type { RegistryClient } from './client.ts';
import { HOUR, type ServerClock } from './clock.ts';
import { resolveWithRetries } from './retried-resolve.ts';
import { expectOk } from './expect.ts';
import { NotProvocable } from './failure.ts';
import type { Ids } from './ids.ts';

export { sha256Hex };
export const build = recordBuilders(sha256Hex);
export type Builders = typeof build;

export interface Clients {
  admin: RegistryClient;
  lifecycle: RegistryClient;
  reader: RegistryClient;
  dispatch(tenant: string): RegistryClient;
  catalogFor(tenant: string): RegistryClient;
}

export interface FleetSpec {
  tenant?: string;
  /** Capability records to declare (default: one fresh capability). */
  capabilities?: Capability[];
  /** Ids among the capabilities to bind (default: all). */
  bound?: string[];
  /** Number of replicas, or one override per replica. */
  replicas?: number | Array<Partial<ReplicaProvision>>;
  capacity?: number;
  topology?: Partial<Topology>;
  priority?: number;
  /** An admission policy to create and name in every binding; null: the implicit default. */
  policy?: Partial<AdmissionPolicy> | null;
  profiles?: string[];
}

export interface Fleet {
  tenant: string;
  type: ConnectorType;
  version: VersionAdmission;
  instance: ConnectorInstance;
  replicas: ReplicaProvision[];
  bindings: CapabilityBinding[];
  /** The first binding and its capability: what most cases route. */
  binding: CapabilityBinding;
  capability: string;
  capabilities: Capability[];
  policy: AdmissionPolicy | null;
}

export class Fixtures {
  constructor(
    private readonly ids: Ids,
    private readonly clients: Clients,
    private readonly clock: ServerClock,
    /** The target's declared limits: a version the case needs beyond them cannot be built, so the case skips. */
    private readonly limits?: RegistryLimits,
  ) {}

  async type(over: Partial<ConnectorType> = {}): Promise<ConnectorType> {
    const record = build.connectorType(over.id ?? this.ids.type(), over);
    expectOk(
      await this.clients.admin.call('putConnectorType', { params: { type_id: record.id }, body: record }),
      'setup: putConnectorType',
    );
    return record;
  }

  async version(typeId: string, capabilities: Capability[], over: Parameters<Builders['version']>[3] = {}): Promise<VersionAdmission> {
    const most = this.limits?.max_capabilities_per_version ?? Infinity;
    if (capabilities.length > most)
      throw new NotProvocable(`the case needs ${capabilities.length} capabilities in one version; max_capabilities_per_version is ${most}`);
    const record = build.version(over.id ?? this.ids.version(), typeId, capabilities, { version: this.ids.semver(), ...over });
    expectOk(await this.clients.admin.call('admitVersion', { params: { version_id: record.id }, body: record }), 'setup: admitVersion');
    return record;
  }

  async instance(typeId: string, versionId: string, tenant: string, over: Partial<ConnectorInstance> = {}): Promise<ConnectorInstance> {
    const record = build.instance(over.id ?? this.ids.instance(), typeId, versionId, tenant, over);
    expectOk(await this.clients.admin.call('putInstance', { params: { instance_id: record.id }, body: record }), 'setup: putInstance');
    return record;
  }

  async binding(
    tenant: string,
    capabilityId: string,
    instanceId: string,
    over: Partial<CapabilityBinding> = {},
  ): Promise<CapabilityBinding> {
    const record = build.binding(tenant, capabilityId, instanceId, over);
    const params = { tenant_id: tenant, capability_id: capabilityId, instance_id: instanceId };
    expectOk(await this.clients.admin.call('putBinding', { params, body: record }), 'setup: putBinding');
    return record;
  }

  async policy(over: Partial<AdmissionPolicy> = {}): Promise<AdmissionPolicy> {
    const record = build.policy(over.policy_ref ?? this.ids.policy(), over);
    expectOk(
      await this.clients.admin.call('putAdmissionPolicy', { params: { policy_ref: record.policy_ref }, body: record }),
      'setup: putAdmissionPolicy',
    );
    return record;
  }

  /** A ready replica whose lease ends two hours from the server's now, unless `over` says otherwise. */
  async replica(instanceId: string, versionId: string, over: Partial<ReplicaProvision> = {}): Promise<ReplicaProvision> {
    const record = build.replica(over.id ?? this.ids.replica(), instanceId, versionId, this.clock.now() + 2 * HOUR, over);
    expectOk(
      await this.clients.lifecycle.call('provisionReplica', { params: { replica_id: record.id }, body: record }),
      'setup: provisionReplica',
    );
    return record;
  }

  /** A fresh capability record with a run-scoped id. */
  capability(over: Partial<Capability> = {}, name?: string): Capability {
    return build.capability(over.id ?? this.ids.capability(name), over);
  }

  /** One complete routable fleet: type, active version, enabled instance, replicas, bindings. */
  async fleet(spec: FleetSpec = {}): Promise<Fleet> {
    const tenant = spec.tenant ?? this.ids.tenant();
    const capabilities = spec.capabilities ?? [this.capability()];
    const policy = spec.policy === undefined || spec.policy === null ? null : await this.policy(spec.policy);
    const type = await this.type();
    const version = await this.version(type.id, capabilities, spec.profiles ? { profiles: spec.profiles } : {});
    const instance = await this.instance(type.id, version.id, tenant);
    const overrides =
      typeof spec.replicas === 'number' || spec.replicas === undefined
        ? Array.from({ length: spec.replicas ?? 1 }, () => ({}))
        : spec.replicas;
    const topology = { region: 'global', zone: 'default', capacity_class: 'standard', ...spec.topology };
    const replicas: ReplicaProvision[] = [];
    for (const over of overrides)
      replicas.push(await this.replica(instance.id, version.id, { capacity: spec.capacity ?? 10, topology, ...over }));
    const bindings: CapabilityBinding[] = [];
    for (const capabilityId of spec.bound ?? capabilities.map((c) => c.id)) {
      bindings.push(
        await this.binding(tenant, capabilityId, instance.id, {
          priority: spec.priority ?? 0,
          quota_policy_ref: policy?.policy_ref ?? null,
        }),
      );
    }
    const first = bindings[0] ?? build.binding(tenant, capabilities[0]!.id, instance.id);
    return { tenant, type, version, instance, replicas, bindings, binding: first, capability: first.capability_id, capabilities, policy };
  }

  /** Moves a replica's health forward by one revision with the given changes. */
  async health(
    replicaId: string,
    change: Partial<Pick<ConnectorReplica, 'status' | 'lease_expires_at' | 'capacity'>>,
  ): Promise<ConnectorReplica> {
    const current = await this.replicaState(replicaId);
    const report = {
      health_revision: current.health_revision + 1,
      status: change.status ?? current.status,
      lease_expires_at: change.lease_expires_at ?? current.lease_expires_at,
      capacity: change.capacity ?? current.capacity,
    };
    return expectOk(
      await this.clients.lifecycle.call('reportHealth', { params: { replica_id: replicaId }, body: report }),
      'setup: reportHealth',
    ).record;
  }

  /**
   * A resolve that must succeed. [route-contention] lets a busy registry
   * answer REPLICA_UNAVAILABLE while capacity is left, so that answer is tried
   * again a bounded number of times before it counts.
   */
  async resolve(tenant: string, capabilityId: string, actionId: string, topology?: TopologyPreference): Promise<RouteView> {
    const body = { action_id: actionId, capability_id: capabilityId, ...(topology ? { topology } : {}) };
    return expectOk(await resolveWithRetries({ sleep: (ms) => delay(ms) }, this.clients.dispatch(tenant), body), 'setup: resolveRoute');
  }

  /**
   * A settlement that must succeed. [settle-idempotent] makes a repeated
   * settlement change nothing, so one whose connection broke before its
   * answer is sent once more. Its `released` then says whether the second
   * attempt released the reservation: when it did not, whether the first
   * did is unknown, and the setup says so instead of answering.
   */
  async settle(view: RouteView, outcome: SettlementOutcome = 'completed'): Promise<SettlementResult> {
    const a = view.assignment;
    const send = () =>
      this.clients.dispatch(a.tenant_id).call('settleRoute', { params: { action_id: a.action_id }, body: { assignment: a, outcome } });
    let lost: TransportError;
    try {
      return expectOk(await send(), 'setup: settleRoute');
    } catch (err) {
      const cause = (err as { cause?: unknown }).cause;
      if (!TransportError.is(cause) || cause.failure !== 'lost') throw err;
      lost = cause;
    }
    const again = expectOk(await send(), `setup: settleRoute, sent again after ${lost.message}`);
    if (!again.released)
      throw new Error(`setup: settleRoute: ${lost.message}; sent again, it released nothing: whether the first attempt did is unknown`, {
        cause: lost,
      });
    return again;
  }

  async route(tenant: string, actionId: string): Promise<RouteView> {
    return expectOk(await this.clients.dispatch(tenant).call('getRoute', { params: { action_id: actionId } }), 'getRoute');
  }

  async replicaState(replicaId: string): Promise<ConnectorReplica> {
    return expectOk(await this.clients.reader.call('getReplica', { params: { replica_id: replicaId } }), 'getReplica');
  }

  async active(replicaId: string): Promise<number> {
    return (await this.replicaState(replicaId)).active_assignments;
  }

  async counter(kind: ScopeKind, key: string): Promise<number> {
    return expectOk(await this.clients.reader.call('getAdmissionCounter', { params: { kind, key } }), 'getAdmissionCounter').active;
  }

  /** The catalog revision now, read from a page of a tenant that sees nothing. */
  async revision(): Promise<number> {
    const reply = await this.clients.catalogFor(this.ids.tenant('revision-probe')).call('queryCatalog', { query: { limit: 1 } });
    return expectOk(reply, 'queryCatalog').catalog_revision;
  }
}
