// Settlement, circuits and lease expiry (spec.md §13–§15), from the text.
import type { LeaseExpiryResult, RouteAssignment, SettlementOutcome, SettlementResult } from '../../../contract/records.ts';
import { compareBytes, sameJson } from '../json.ts';
import { addToCounters, type ModelReplica, type ModelState } from '../model-state.ts';
import type { TimeWindow } from '../../targets/target.ts';
import { failure, success, type Branch } from './outcome.ts';

/** [circuit-counting], [circuit-opens]; the open-until instant keeps the window's uncertainty. */
function settleCircuit(r: ModelReplica, outcome: SettlementOutcome, a: RouteAssignment, at: TimeWindow): void {
  if (outcome === 'completed') {
    Object.assign(r, { failures: 0, openUntil: 0, openUntilSpan: 0 });
    return;
  }
  if (outcome !== 'outcome_unknown') return;
  r.failures += 1;
  if (r.failures < a.admission.circuit_failure_threshold) return;
  const lo = Math.max(r.openUntil, at.lo + a.admission.circuit_open_ms);
  const hi = Math.max(r.openUntil + r.openUntilSpan, at.hi + a.admission.circuit_open_ms);
  Object.assign(r, { openUntil: lo, openUntilSpan: hi - lo });
}

/** [settle-unknown-action], [settle-fence], [settle-idempotent], [settle-release-once]. */
export function settle(
  s: ModelState,
  tenant: string,
  actionId: string,
  presented: RouteAssignment,
  outcome: SettlementOutcome,
  at: TimeWindow,
): Branch<SettlementResult>[] {
  const route = s.routes[actionId];
  if (!route || route.assignment.tenant_id !== tenant) return [failure(s, 'NOT_FOUND')];
  if (!sameJson(route.assignment, presented)) return [failure(s, 'FENCE_LOST')];
  if (!route.reserved) return [success(s, { action_id: actionId, released: false, last_settlement: route.last })];
  const next = structuredClone(s);
  const held = next.routes[actionId]!;
  addToCounters(next, held.held, -1);
  const r = next.replicas[held.assignment.replica_id]!;
  r.active -= 1;
  settleCircuit(r, outcome, held.assignment, at);
  held.reserved = false;
  held.last = outcome;
  return [success(next, { action_id: actionId, released: true, last_settlement: outcome })];
}

/**
 * [lease-expiry-bounded], [lease-expiry-effect]: at most `limit` replicas, earliest lease first, decided at
 * `now`; `latest` is the last instant the registry could have acted at, which bounds the lease it leaves.
 */
export function expireLeases(s: ModelState, limit: number, now: number, latest: number): Branch<LeaseExpiryResult>[] {
  const next = structuredClone(s);
  const stale = Object.values(next.replicas)
    .filter((r) => r.health.status !== 'offline' && r.leaseMs <= now)
    .sort((a, b) => a.leaseMs - b.leaseMs || compareBytes(a.provision.id, b.provision.id))
    .slice(0, limit);
  for (const r of stale) {
    for (const route of Object.values(next.routes)) {
      if (!route.reserved || route.assignment.replica_id !== r.provision.id) continue;
      addToCounters(next, route.held, -1);
      route.reserved = false;
      route.last = 'lease_expired';
    }
    r.health = { ...r.health, status: 'offline', health_revision: r.health.health_revision + 1 };
    r.leaseNoLaterThan = latest;
    r.active = 0;
  }
  return [success(next, { expired: stale.length })];
}

/**
 * The instants worth evaluating a time-dependent rule at within a window: its
 * start and every lease or circuit deadline inside it. Between two of these
 * nothing the rules read changes, so they cover every possible outcome.
 */
export function decisionInstants(s: ModelState, at: TimeWindow): number[] {
  const instants = new Set([at.lo]);
  for (const r of Object.values(s.replicas)) {
    for (const d of [r.leaseMs, r.openUntil]) if (d > at.lo && d <= at.hi) instants.add(d);
  }
  return [...instants].sort((a, b) => a - b);
}
