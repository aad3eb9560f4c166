// Lease maintenance and fleet status in the memory store (spec.md §15–§16).
import type { ReferenceChoices } from '../../domain/choices.ts';
import type { FleetStatus, LeaseExpiryResult, RegistryLimits } from '../../../contract/records.ts';
import { counterKey } from '../../domain/admission.ts';
import { compareBytes } from '../../domain/ordering.ts';
import { invalid } from '../../../contract/registry-error.ts';
import { toTimestamp } from '../../domain/time.ts';
import type { MemoryState, StoredReplica } from './memory-state.ts';

/** [lease-expiry-bounded], [lease-expiry-effect], [lease-expiry-keeps-routes]. */
export function expireLeases(
  state: MemoryState,
  limit: number,
  nowMs: number,
  limits: RegistryLimits,
  expiredLease: ReferenceChoices['expiredLease'],
): LeaseExpiryResult {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > limits.max_expiry_batch) {
    throw invalid(`limit must be an integer between 1 and ${limits.max_expiry_batch}`);
  }
  const table = state.replicaTable;
  const stale: StoredReplica[] = [];
  for (const r of state.replicas.values()) if (table.status(r.row) !== 'offline' && table.leaseMs(r.row) <= nowMs) stale.push(r);
  stale.sort((a, b) => table.leaseMs(a.row) - table.leaseMs(b.row) || compareBytes(a.id, b.id));
  const chosen = stale.slice(0, limit);
  const expiring = new Set(chosen.map((r) => r.id));
  for (const route of state.reserved) {
    if (!expiring.has(route.assignment.replica_id)) continue;
    for (const s of route.scopes) {
      const key = counterKey(s.kind, s.key);
      const next = Math.max(0, state.counter(key) - 1);
      if (next === 0) state.counters.delete(key);
      else state.counters.set(key, next);
    }
    route.reserved = false;
    route.lastSettlement = 'lease_expired';
    state.reserved.delete(route);
  }
  for (const r of chosen) {
    const leaseMs = expiredLease === 'now' ? nowMs : Math.min(table.leaseMs(r.row), nowMs);
    r.provision = Object.freeze({
      ...r.provision,
      status: 'offline' as const,
      health_revision: r.provision.health_revision + 1,
      lease_expires_at: toTimestamp(leaseMs),
    });
    table.setHealth(r.row, 'offline', leaseMs, table.capacity(r.row));
    table.setActive(r.row, 0);
  }
  return { expired: chosen.length };
}

export function fleetStatus(state: MemoryState, nowMs: number): FleetStatus {
  let activeVersions = 0;
  for (const v of state.versions.values()) if (v.status === 'active' && v.supply_chain_qualified) activeVersions++;
  let enabledInstances = 0;
  for (const i of state.instances.values()) if (i.status === 'enabled') enabledInstances++;
  const s = { ready: 0, draining: 0, offline: 0, expired: 0, readyCapacity: 0, active: 0 };
  const table = state.replicaTable;
  for (let row = 0; row < table.size; row++) {
    const live = table.leaseMs(row) > nowMs;
    const status = table.status(row);
    if (!live) s.expired++;
    if (status === 'offline') s.offline++;
    else if (status === 'ready' && live) {
      s.ready++;
      s.readyCapacity += table.capacity(row);
    } else if (status === 'draining' && live) s.draining++;
    s.active += table.active(row);
  }
  return {
    catalog_revision: state.revision,
    connector_types: state.types.size,
    active_versions: activeVersions,
    enabled_instances: enabledInstances,
    replicas: state.replicas.size,
    ready_replicas: s.ready,
    draining_replicas: s.draining,
    offline_replicas: s.offline,
    expired_leases: s.expired,
    ready_capacity: s.readyCapacity,
    active_assignments: s.active,
    observed_at: toTimestamp(nowMs),
  };
}
