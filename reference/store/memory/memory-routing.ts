// Route resolution and settlement in the memory store (spec.md §9–§14). Each
// call runs to completion without yielding, which is what makes it atomic in
// a single-threaded process; the faults that yield (capacity-outside-lock and
// the race switches of races.ts) show why that matters.
import type {
  RegistryLimits,
  ResolveRequest,
  RouteAssignment,
  RouteView,
  ScopeReservation,
  SettlementOutcome,
  SettlementResult,
  TopologyPreference,
} from '../../../contract/records.ts';
import { attemptScopes, buildReservation, counterKey, IMPLICIT_DEFAULT_POLICY } from '../../domain/admission.ts';
import { buildAssignment } from '../../domain/assignment.ts';
import { circuitAfterSettlement } from '../../domain/circuit.ts';
import { tiebreakHash } from '../../domain/digest.ts';
import { bindingChainValid, pinnedTargetValid, replicaTakesNewRoute, replicaTakesRetry } from '../../domain/eligibility.ts';
import type { Faults } from '../../domain/faults.ts';
import { afterCheck } from '../../domain/races.ts';
import type { FenceTokenSource } from '../../domain/fence-token.ts';
import { compareRanks, emptyRank, fillRank } from '../../domain/ordering.ts';
import {
  admissionRejected,
  bindingUnavailable,
  capacityExceeded,
  conflict,
  fenceLost,
  notFound,
  replicaUnavailable,
} from '../../domain/registry-error.ts';
import type { Clock } from '../../domain/time.ts';
import { assertShape, jsonEqual } from '../../domain/validation.ts';
import type { MemoryState, RouteCandidates, RouteChain, StoredReplica, StoredRoute } from './memory-state.ts';

export interface RoutingDeps {
  clock: Clock;
  fenceTokens: FenceTokenSource;
  limits: RegistryLimits;
  faults: Faults;
}

function viewOf(route: StoredRoute): RouteView {
  return { assignment: route.assignment, reserved: route.reserved, last_settlement: route.lastSettlement };
}

// Scope objects are shared by every assignment of a chain, so their counter
// keys are worth remembering rather than rebuilding on every attempt.
const counterKeys = new WeakMap<ScopeReservation, string>();
function keyOf(s: ScopeReservation): string {
  let key = counterKeys.get(s);
  if (key === undefined) counterKeys.set(s, (key = counterKey(s.kind, s.key)));
  return key;
}

/** [admission-all-or-nothing]: the first exhausted scope, or null when all have room. */
function exhaustedScope(state: MemoryState, scopes: readonly ScopeReservation[]): ScopeReservation | null {
  for (const s of scopes) if (state.counter(keyOf(s)) >= s.limit) return s;
  return null;
}

function addToCounters(state: MemoryState, scopes: readonly ScopeReservation[], delta: 1 | -1): void {
  for (const s of scopes) {
    const key = keyOf(s);
    const next = state.counter(key) + delta;
    if (next === 0) state.counters.delete(key);
    else state.counters.set(key, next);
  }
}

const NO_PREFERENCE: TopologyPreference = Object.freeze({});

interface Selection {
  chain: RouteChain;
  replica: StoredReplica;
}

/** The valid chains of (tenant, capability) in priority order, and their replicas, cached per revision. */
function routeCandidates(state: MemoryState, tenantId: string, capabilityId: string): RouteCandidates {
  let byCapability = state.routeCandidates.get(tenantId);
  let cached = byCapability?.get(capabilityId);
  if (cached) return cached;
  const key = `${tenantId}\u001f${capabilityId}`;
  const chains: RouteChain[] = [];
  const rows: number[] = [];
  const chainOf: number[] = [];
  const priority: number[] = [];
  const instanceId: string[] = [];
  const versionId: string[] = [];
  for (const binding of state.bindingsByTenantCapability.get(key) ?? []) {
    const b = binding.record;
    const instance = state.instances.get(b.instance_id);
    const version = instance && state.versions.get(instance.version_id);
    if (!version || !bindingChainValid(b, instance, version, state.types.get(version.connector_type_id))) continue;
    const policy = b.quota_policy_ref === null ? IMPLICIT_DEFAULT_POLICY : state.policies.get(b.quota_policy_ref)!;
    const admission = buildReservation(b.quota_policy_ref, policy, {
      tenantId,
      connectorTypeId: version.connector_type_id,
      instanceId: instance.id,
      bindingKey: binding.scopeKey,
    });
    chains.push({ binding, instance, version, policy, admission: deepFreeze(admission) });
    for (const replica of state.replicaList(instance.id)) {
      rows.push(replica.row);
      chainOf.push(chains.length - 1);
      priority.push(b.priority);
      instanceId.push(instance.id);
      versionId.push(version.record.id);
    }
  }
  cached = { chains, rows: Int32Array.from(rows), chainOf: Int32Array.from(chainOf), priority: Int32Array.from(priority), instanceId, versionId };
  if (!byCapability) state.routeCandidates.set(tenantId, (byCapability = new Map()));
  byCapability.set(capabilityId, cached);
  return cached;
}

/** [route-binding-unavailable], [route-eligibility], [route-order], [route-replica-unavailable]. */
function selectReplica(state: MemoryState, tenantId: string, req: ResolveRequest, pref: TopologyPreference, nowMs: number): Selection {
  const c = routeCandidates(state, tenantId, req.capability_id);
  if (c.chains.length === 0) throw bindingUnavailable(tenantId, req.capability_id);
  const actionHash = tiebreakHash(req.action_id);
  const table = state.replicaTable;
  const cursor = state.replicaCursor;
  let best = -1;
  let bestRank = emptyRank();
  let rank = emptyRank();
  for (let i = 0; i < c.rows.length; i++) {
    const priority = c.priority[i]!;
    // Candidates follow chain priority; a lower priority can never win once one is found.
    if (best >= 0 && priority > bestRank.priority) break;
    const row = c.rows[i]!;
    if (!replicaTakesNewRoute(cursor.at(row), c.versionId[i]!, pref, nowMs)) continue;
    fillRank(rank, priority, c.instanceId[i]!, table.ids[row]!, cursor.topology, table.active(row), table.hash(row), pref, actionHash);
    if (best < 0 || compareRanks(rank, bestRank) < 0) {
      best = i;
      [bestRank, rank] = [rank, bestRank];
    }
  }
  if (best < 0) throw replicaUnavailable(c.chains[0]!.instance.id);
  return { chain: c.chains[c.chainOf[best]!]!, replica: state.replicas.get(table.ids[c.rows[best]!]!)! };
}

interface NewRoutePlan {
  selection: Selection;
  scopes: readonly ScopeReservation[];
  nowMs: number;
}

/** Everything a new route must pass before anything changes. */
function planNewRoute(state: MemoryState, deps: RoutingDeps, tenantId: string, req: ResolveRequest): NewRoutePlan {
  const nowMs = deps.clock();
  const selection = selectReplica(state, tenantId, req, req.topology ?? NO_PREFERENCE, nowMs);
  const { chain } = selection;
  if (!chain.policy.enabled) throw admissionRejected(`admission policy ${chain.policy.policy_ref} is disabled`);
  const scopes = attemptScopes(chain.admission, false);
  const exhausted = exhaustedScope(state, scopes);
  if (exhausted) throw capacityExceeded(exhausted.kind);
  return { selection, scopes, nowMs };
}

/** [route-atomic]: reserve, count and store the assignment in one step. */
function commitNewRoute(state: MemoryState, deps: RoutingDeps, tenantId: string, req: ResolveRequest, plan: NewRoutePlan): RouteView {
  const { chain, replica } = plan.selection;
  const assignment: RouteAssignment = buildAssignment({
    actionId: req.action_id,
    capabilityId: req.capability_id,
    tenantId,
    instance: chain.instance,
    manifestDigest: chain.version.record.manifest_digest,
    replica: replica.provision,
    binding: chain.binding.record,
    catalogRevision: state.revision,
    fenceToken: deps.fenceTokens(),
    admission: chain.admission,
    nowMs: plan.nowMs,
  });
  addToCounters(state, plan.scopes, 1);
  state.replicaTable.setActive(replica.row, state.replicaTable.active(replica.row) + 1);
  const route: StoredRoute = { assignment: Object.freeze(assignment), reserved: true, lastSettlement: null, scopes: plan.scopes };
  state.routes.set(req.action_id, route);
  state.reserved.add(route);
  return viewOf(route);
}

function createRoute(state: MemoryState, deps: RoutingDeps, tenantId: string, req: ResolveRequest): RouteView | Promise<RouteView> {
  const plan = planNewRoute(state, deps, tenantId, req);
  // The race switches commit a turn after the plan: with the replica chosen again (so only the scopes
  // are stale), or with the scopes checked again (so only the replica's room is stale).
  if (deps.faults.has('race-scope-reservation')) return afterCheck(deps.faults, 'race-scope-reservation', () => commitNewRoute(state, deps, tenantId, req, { ...plan, selection: selectReplica(state, tenantId, req, req.topology ?? NO_PREFERENCE, deps.clock()) }));
  if (deps.faults.has('race-replica-capacity')) return afterCheck(deps.faults, 'race-replica-capacity', () => commitNewRoute(state, deps, tenantId, req, { ...planNewRoute(state, deps, tenantId, req), selection: plan.selection }));
  if (!deps.faults.has('capacity-outside-lock')) return commitNewRoute(state, deps, tenantId, req, plan);
  // The fault: decide, yield to other requests, then commit what was decided.
  return new Promise<void>((resolve) => setImmediate(resolve)).then(() => commitNewRoute(state, deps, tenantId, req, plan));
}

/** [pinned-reacquire], [pinned-replica-conditions], [pinned-precedence]. */
function reacquire(state: MemoryState, deps: RoutingDeps, route: StoredRoute): RouteView | Promise<RouteView> {
  const a = route.assignment;
  const scopes = attemptScopes(a.admission, true);
  const exhausted = exhaustedScope(state, scopes);
  if (exhausted) throw capacityExceeded(exhausted.kind);
  const nowMs = deps.clock();
  const replica = state.replicas.get(a.replica_id);
  const instance = state.instances.get(a.instance_id);
  const version = state.versions.get(a.version_id);
  const type = version && state.types.get(version.connector_type_id);
  if (!replica || !replicaTakesRetry(state.replicaCursor.at(replica.row), nowMs) || !pinnedTargetValid(a.version_id, instance, version, type)) {
    throw replicaUnavailable(a.instance_id);
  }
  return afterCheck(deps.faults, 'race-retry-budget', () => {
    addToCounters(state, scopes, 1);
    state.replicaTable.setActive(replica.row, state.replicaTable.active(replica.row) + 1);
    route.reserved = true;
    route.lastSettlement = null;
    route.scopes = scopes;
    state.reserved.add(route);
    return viewOf(route);
  });
}

export function resolve(state: MemoryState, deps: RoutingDeps, tenantId: string, req: ResolveRequest): RouteView | Promise<RouteView> {
  assertShape<string>('TenantId', tenantId);
  assertShape<ResolveRequest>('ResolveRequest', req);
  const existing = state.routes.get(req.action_id);
  if (!existing) return afterCheck(deps.faults, 'race-action-insert', () => createRoute(state, deps, tenantId, req));
  const a = existing.assignment;
  if (a.tenant_id !== tenantId || a.capability_id !== req.capability_id) {
    throw conflict(`action ${req.action_id} is already routed with a different tenant or capability`);
  }
  if (existing.reserved) return viewOf(existing);
  if (deps.faults.has('reselect-on-retry')) {
    state.routes.delete(req.action_id);
    return createRoute(state, deps, tenantId, req);
  }
  return reacquire(state, deps, existing);
}

export function route(state: MemoryState, tenantId: string, actionId: string): RouteView | null {
  assertShape<string>('TenantId', tenantId);
  assertShape<string>('ActionId', actionId);
  const stored = state.routes.get(actionId);
  return stored && stored.assignment.tenant_id === tenantId ? viewOf(stored) : null;
}

/** [settle-fence], [settle-release-once], [settle-idempotent], [circuit-counting]. */
export function settle(
  state: MemoryState,
  deps: RoutingDeps,
  tenantId: string,
  actionId: string,
  assignment: RouteAssignment,
  outcome: SettlementOutcome,
): SettlementResult | Promise<SettlementResult> {
  assertShape<string>('TenantId', tenantId);
  assertShape<string>('ActionId', actionId);
  assertShape('SettlementOutcome', outcome);
  const stored = state.routes.get(actionId);
  const owned = stored !== undefined && stored.assignment.tenant_id === tenantId;
  // A presented assignment equal to the stored one is valid by construction,
  // so the full shape check is only needed to tell bad input from a lost fence.
  if (!owned || !jsonEqual(stored.assignment, assignment)) {
    assertShape('RouteAssignment', assignment);
    if (!owned) throw notFound(`route ${actionId}`);
    if (!deps.faults.has('settle-skip-fence')) throw fenceLost('the presented assignment differs from the stored one');
  }
  const releaseAgain = !stored.reserved && deps.faults.has('settle-release-twice');
  if (!stored.reserved && !releaseAgain) return { action_id: actionId, released: false, last_settlement: stored.lastSettlement };
  const replica = state.replicas.get(stored.assignment.replica_id)!;
  // A held reservation always has its units counted; a zero here is a defect of the store, not a lost
  // fence. A registry with the settlement race has no such guard: its counters simply go wrong.
  if (!releaseAgain && !deps.faults.has('race-settle-release')) for (const s of stored.scopes) if (state.counter(keyOf(s)) === 0) throw new Error(`counter ${s.kind}/${s.key} is 0 while a reservation holds it`);
  return afterCheck(deps.faults, 'race-settle-release', () => release(state, deps, stored, replica, outcome, releaseAgain));
}

/** The writes of a settlement that releases: counters, the replica's unit and circuit, the route. */
function release(state: MemoryState, deps: RoutingDeps, stored: StoredRoute, replica: StoredReplica, outcome: SettlementOutcome, releaseAgain: boolean): SettlementResult {
  if (!releaseAgain) addToCounters(state, stored.scopes, -1);
  else addToCounters(state, stored.scopes.filter((s) => state.counter(counterKey(s.kind, s.key)) > 0), -1);
  const table = state.replicaTable;
  table.setActive(replica.row, Math.max(0, table.active(replica.row) - 1));
  const circuit = circuitAfterSettlement(state.replicaCursor.at(replica.row), outcome, stored.assignment.admission, deps.clock());
  table.setCircuit(replica.row, circuit.consecutive_failures, circuit.open_until_ms);
  stored.reserved = false;
  stored.lastSettlement = outcome;
  state.reserved.delete(stored);
  return { action_id: stored.assignment.action_id, released: true, last_settlement: outcome };
}

/** Freezes a JSON value in depth, so no caller can alter stored state through it. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
