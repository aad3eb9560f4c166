// The fixture every behaviour test starts from: a store made by the factory
// under test, a manual clock, deterministic fence tokens, record builders and
// a small helper for the common "one type, one version, one instance, some
// replicas, one binding" fleet.
import { createHash } from 'node:crypto';
import { recordBuilders } from '../../../../contract/builders.js';
import type {
  CapabilityBinding,
  RegistryLimits,
  CatalogContext,
  ConnectorInstance,
  ReplicaProvision,
  RouteView,
  VersionAdmission,
} from '../../../../contract/records.ts';
import { sequentialFenceTokens, type FenceTokenSource } from '../../../domain/fence-token.ts';
import { ManualClock } from '../../../domain/time.ts';
import type { RegistryStore } from '../../registry-store.ts';

export const T0 = Date.parse('2026-11-30T12:00:00.000Z');
export const HOUR = 3_600_000;

export interface StoreFactoryOptions {
  clock: ManualClock;
  fenceTokens: FenceTokenSource;
  /** Limits to use instead of the defaults, for tests of the bounds themselves. */
  limits?: Partial<RegistryLimits>;
}

export interface StoreHandle {
  store: RegistryStore;
  /** Releases the store's resources (database, pools). */
  close(): Promise<void>;
}

export type StoreFactory = (options: StoreFactoryOptions) => Promise<StoreHandle>;

export const b = recordBuilders((text) => createHash('sha256').update(text, 'utf8').digest('hex'));

export const tenant = (t: string): CatalogContext => ({ tenant_id: t, allow_unbound: false });
export const internal: CatalogContext = { tenant_id: null, allow_unbound: true };
export const anonymous: CatalogContext = { tenant_id: null, allow_unbound: false };

export interface Fleet {
  typeId: string;
  version: VersionAdmission;
  instance: ConnectorInstance;
  replicas: ReplicaProvision[];
  binding: CapabilityBinding;
  capabilityIds: string[];
}

export interface FleetSpec {
  /** Unique suffix for every id of this fleet. */
  name: string;
  tenantId?: string;
  capabilities?: string[];
  replicas?: number;
  capacity?: number;
  priority?: number;
  quotaPolicyRef?: string | null;
  region?: string;
  zone?: string;
  /** Capabilities to bind (default: all of them). */
  bound?: string[];
}

export class World {
  constructor(
    readonly store: RegistryStore,
    readonly clock: ManualClock,
  ) {}

  now(): number {
    return this.clock.now();
  }

  /** Puts one complete, routable fleet and returns its records. */
  async fleet(spec: FleetSpec): Promise<Fleet> {
    const s = this.store;
    const tenantId = spec.tenantId ?? 'tenant-a';
    const capabilityIds = spec.capabilities ?? [`cap:${spec.name}:run`];
    const typeId = `ctype_${spec.name}`;
    await s.putConnectorType(b.connectorType(typeId));
    const version = b.version(
      `cver_${spec.name}`,
      typeId,
      capabilityIds.map((id) => b.capability(id)),
    );
    await s.admitVersion(version);
    const instance = b.instance(`cinst_${spec.name}`, typeId, version.id, tenantId);
    await s.putInstance(instance);
    const replicas: ReplicaProvision[] = [];
    for (let i = 1; i <= (spec.replicas ?? 1); i++) {
      const r = b.replica(`crepl_${spec.name}_${i}`, instance.id, version.id, this.now() + HOUR, {
        capacity: spec.capacity ?? 10,
        topology: { region: spec.region ?? 'global', zone: spec.zone ?? 'default', capacity_class: 'standard' },
      });
      await s.provisionReplica(r);
      replicas.push(r);
    }
    let binding = b.binding(tenantId, capabilityIds[0]!, instance.id, {
      priority: spec.priority ?? 0,
      quota_policy_ref: spec.quotaPolicyRef ?? null,
    });
    for (const capabilityId of spec.bound ?? capabilityIds) {
      const bound = { ...binding, capability_id: capabilityId };
      await s.putBinding(bound);
      if (capabilityId === capabilityIds[0]) binding = bound;
    }
    return { typeId, version, instance, replicas, binding, capabilityIds };
  }

  resolve(tenantId: string, actionId: string, capabilityId: string, topology?: Record<string, unknown>): Promise<RouteView> {
    return this.store.resolve(tenantId, { action_id: actionId, capability_id: capabilityId, ...(topology ? { topology } : {}) });
  }

  async settle(view: RouteView, outcome: 'completed' | 'outcome_unknown' | 'cancelled' | 'lease_expired' = 'completed') {
    const a = view.assignment;
    return this.store.settle(a.tenant_id, a.action_id, a, outcome);
  }

  async active(replicaId: string): Promise<number> {
    return (await this.store.getReplica(replicaId))!.active_assignments;
  }

  async counter(kind: 'global' | 'tenant' | 'connector_type' | 'instance' | 'binding' | 'tenant_retry', key: string): Promise<number> {
    return (await this.store.getAdmissionCounter(kind, key)).active;
  }

  /** Moves a replica's health forward with the given changes. */
  async health(replicaId: string, change: Partial<{ status: 'ready' | 'draining' | 'offline'; leaseMs: number; capacity: number }>) {
    const r = (await this.store.getReplica(replicaId))!;
    return this.store.reportHealth(replicaId, {
      health_revision: r.health_revision + 1,
      status: change.status ?? r.status,
      lease_expires_at: change.leaseMs !== undefined ? new Date(change.leaseMs).toISOString() : r.lease_expires_at,
      capacity: change.capacity ?? r.capacity,
    });
  }
}

export async function withWorld(factory: StoreFactory, body: (w: World) => Promise<void>, limits?: Partial<RegistryLimits>): Promise<void> {
  const clock = new ManualClock(T0);
  const handle = await factory({ clock, fenceTokens: sequentialFenceTokens(), ...(limits ? { limits } : {}) });
  try {
    await body(new World(handle.store, clock));
  } finally {
    await handle.close();
  }
}
