// Route resolution and settlement in the memory store (spec.md §9–§14). Each
// call runs to completion without yielding, which is what makes it atomic in
// a single-threaded process; the race hooks (../race-hooks.ts), which yield
// between a check and its write, show why that matters.
// The decisions are the domain's (resolve-decision.ts, settle-decision.ts);
// this file reads the maps and writes them.
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
import { buildReservation, counterKey, IMPLICIT_DEFAULT_POLICY } from '../../domain/admission.ts';
import { buildAssignment } from '../../domain/assignment.ts';
import { circuitAfterSettlement } from '../../domain/circuit.ts';
import { tiebreakHash } from '../../domain/digest.ts';
import { bindingChainValid, replicaTakesNewRoute } from '../../domain/eligibility.ts';
import type { FenceTokenSource } from '../../domain/fence-token.ts';
import { compareRanks, emptyRank, fillRank } from '../../domain/ordering.ts';
import {
  capacityRefusal,
  newRouteScopes,
  namedBinding,
  noReplicaRefusal,
  pinnedRouteUsable,
  reacquireRefusal,
  resolvePath,
  retryScopes,
} from '../../domain/resolve-decision.ts';
import { released, settlePath, unreleased } from '../../domain/settle-decision.ts';
import type { ReferenceChoices } from '../../domain/choices.ts';
import type { Clock } from '../../domain/time.ts';
import { assertShape } from '../../domain/validation.ts';
import { afterPause, type RaceHooks } from '../race-hooks.ts';
import type { MemoryState, RouteCandidates, RouteChain, StoredReplica, StoredRoute } from './memory-state.ts';

export interface RoutingDeps {
  clock: Clock;
  fenceTokens: FenceTokenSource;
  limits: RegistryLimits;
  race: RaceHooks;
  choices: ReferenceChoices;
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

/** [admission-all-or-nothing]: the refusal for the first scope at its limit, or null when all have room. */
function exhausted(state: MemoryState, scopes: readonly ScopeReservation[]) {
  return capacityRefusal(scopes, (s) => state.counter(keyOf(s)));
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
  cached = {
    chains,
    rows: Int32Array.from(rows),
    chainOf: Int32Array.from(chainOf),
    priority: Int32Array.from(priority),
    instanceId,
    versionId,
  };
  if (!byCapability) state.routeCandidates.set(tenantId, (byCapability = new Map()));
  byCapability.set(capabilityId, cached);
  return cached;
}

/** [route-binding-unavailable], [route-eligibility], [route-order], [route-replica-unavailable]. */
function selectReplica(
  state: MemoryState,
  choices: ReferenceChoices,
  tenantId: string,
  req: ResolveRequest,
  pref: TopologyPreference,
  nowMs: number,
): Selection {
  const c = routeCandidates(state, tenantId, req.capability_id);
  if (c.chains.length === 0) throw noReplicaRefusal(tenantId, req.capability_id, undefined);
  const actionHash = tiebreakHash(req.action_id, choices.tiebreakSalt);
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
  if (best < 0)
    throw noReplicaRefusal(
      tenantId,
      req.capability_id,
      namedBinding(c.chains, (ch) => ch.binding.record.priority, choices.equalPriorityInstance)!.instance.id,
    );
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
  const selection = selectReplica(state, deps.choices, tenantId, req, req.topology ?? NO_PREFERENCE, nowMs);
  const { chain } = selection;
  const scopes = newRouteScopes(chain.policy, chain.admission);
  const refusal = exhausted(state, scopes);
  if (refusal) throw refusal;
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
  const { newRouteScopes, newRouteReplica, newRoutePlan } = deps.race;
  // A hook between check and commit: with the replica chosen again (so only the scopes are stale),
  // with the scopes checked again (so only the replica's room is stale), or with the plan as it was.
  if (newRouteScopes)
    return afterPause(newRouteScopes, () =>
      commitNewRoute(state, deps, tenantId, req, {
        ...plan,
        selection: selectReplica(state, deps.choices, tenantId, req, req.topology ?? NO_PREFERENCE, deps.clock()),
      }),
    );
  if (newRouteReplica)
    return afterPause(newRouteReplica, () =>
      commitNewRoute(state, deps, tenantId, req, { ...planNewRoute(state, deps, tenantId, req), selection: plan.selection }),
    );
  return afterPause(newRoutePlan, () => commitNewRoute(state, deps, tenantId, req, plan));
}

/** [pinned-reacquire], [pinned-replica-conditions], [pinned-precedence]. */
function reacquire(state: MemoryState, deps: RoutingDeps, route: StoredRoute): RouteView | Promise<RouteView> {
  const a = route.assignment;
  const scopes = retryScopes(a.admission);
  const replica = state.replicas.get(a.replica_id);
  const version = state.versions.get(a.version_id);
  const usable = pinnedRouteUsable(
    a.version_id,
    {
      replica: replica && state.replicaCursor.at(replica.row),
      instance: state.instances.get(a.instance_id),
      version,
      type: version && state.types.get(version.connector_type_id),
    },
    deps.clock(),
  );
  const refusal = reacquireRefusal(exhausted(state, scopes), usable, a.instance_id);
  if (refusal) throw refusal;
  const row = replica!.row; // a usable route has its replica
  return afterPause(deps.race.retryReservation, () => {
    addToCounters(state, scopes, 1);
    state.replicaTable.setActive(row, state.replicaTable.active(row) + 1);
    route.reserved = true;
    route.scopes = scopes;
    state.reserved.add(route);
    return viewOf(route);
  });
}

export function resolve(state: MemoryState, deps: RoutingDeps, tenantId: string, req: ResolveRequest): RouteView | Promise<RouteView> {
  assertShape<string>('TenantId', tenantId);
  assertShape<ResolveRequest>('ResolveRequest', req);
  const existing = state.routes.get(req.action_id);
  switch (resolvePath(existing, tenantId, req)) {
    case 'select':
      return afterPause(deps.race.actionInsert, () => createRoute(state, deps, tenantId, req));
    case 'reuse':
      return viewOf(existing!);
    case 'reacquire':
      return reacquire(state, deps, existing!);
  }
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
  const found = state.routes.get(actionId);
  const path = settlePath(found, tenantId, actionId, assignment);
  const stored = found!; // settlePath refuses a missing route
  if (path === 'unreleased') return unreleased(actionId, stored.lastSettlement);
  const replica = state.replicas.get(stored.assignment.replica_id)!;
  // A held reservation always has its units counted; a zero here is a defect of the store, not a lost
  // fence. With a hook between the check and the release there is no such guard: counters simply go wrong.
  if (!deps.race.settleRelease) {
    for (const s of stored.scopes)
      if (state.counter(keyOf(s)) === 0) throw new Error(`counter ${s.kind}/${s.key} is 0 while a reservation holds it`);
  }
  return afterPause(deps.race.settleRelease, () => release(state, deps, stored, replica, outcome));
}

/** The writes of a settlement that releases: counters, the replica's unit and circuit, the route. */
function release(
  state: MemoryState,
  deps: RoutingDeps,
  stored: StoredRoute,
  replica: StoredReplica,
  outcome: SettlementOutcome,
): SettlementResult {
  addToCounters(state, stored.scopes, -1);
  const table = state.replicaTable;
  table.setActive(replica.row, Math.max(0, table.active(replica.row) - 1));
  const circuit = circuitAfterSettlement(
    state.replicaCursor.at(replica.row),
    outcome,
    stored.assignment.admission,
    deps.clock(),
    deps.choices,
  );
  table.setCircuit(replica.row, circuit.consecutive_failures, circuit.open_until_ms);
  stored.reserved = false;
  stored.lastSettlement = outcome;
  state.reserved.delete(stored);
  return released(stored.assignment.action_id, outcome);
}

/** Freezes a JSON value in depth, so no caller can alter stored state through it. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
