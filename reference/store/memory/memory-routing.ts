// Route resolution and settlement in the memory store (spec.md §9–§14). Each
// call runs to completion without yielding, which is what makes it atomic in
// a single-threaded process; the one fault that yields shows why that matters.
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
import type { FenceTokenSource } from '../../domain/fence-token.ts';
import { compareCandidates, type Candidate } from '../../domain/ordering.ts';
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
import type { MemoryState, StoredBinding, StoredReplica, StoredRoute } from './memory-state.ts';

export interface RoutingDeps {
  clock: Clock;
  fenceTokens: FenceTokenSource;
  limits: RegistryLimits;
  faults: Faults;
}

function viewOf(route: StoredRoute): RouteView {
  return { assignment: route.assignment, reserved: route.reserved, last_settlement: route.lastSettlement };
}

/** [admission-all-or-nothing]: the first exhausted scope, or null when all have room. */
function exhaustedScope(state: MemoryState, scopes: readonly ScopeReservation[]): ScopeReservation | null {
  for (const s of scopes) if (state.counter(counterKey(s.kind, s.key)) >= s.limit) return s;
  return null;
}

function addToCounters(state: MemoryState, scopes: readonly ScopeReservation[], delta: 1 | -1): void {
  for (const s of scopes) {
    const key = counterKey(s.kind, s.key);
    const next = state.counter(key) + delta;
    if (next === 0) state.counters.delete(key);
    else state.counters.set(key, next);
  }
}

function candidateOf(b: StoredBinding, r: StoredReplica): Candidate {
  return {
    priority: b.record.priority,
    instanceId: b.record.instance_id,
    replicaId: r.provision.id,
    region: r.topology.region,
    zone: r.topology.zone,
    active: r.active,
    replicaHash: r.hash,
  };
}

interface Selection {
  binding: StoredBinding;
  replica: StoredReplica;
}

/** [route-binding-unavailable], [route-eligibility], [route-order], [route-replica-unavailable]. */
function selectReplica(state: MemoryState, tenantId: string, req: ResolveRequest, pref: TopologyPreference, nowMs: number): Selection {
  const bindings = state.bindingsByTenantCapability.get(`${tenantId}\u001f${req.capability_id}`) ?? [];
  const actionHash = tiebreakHash(req.action_id);
  let firstEligible: StoredBinding | undefined;
  let best: { selection: Selection; candidate: Candidate } | undefined;
  for (const b of bindings) {
    // Bindings are sorted by priority; a lower priority can never win once a candidate exists.
    if (best && b.record.priority > best.candidate.priority) break;
    const instance = state.instances.get(b.record.instance_id);
    const version = instance && state.versions.get(instance.version_id);
    if (!version || !bindingChainValid(b.record, instance, version, state.types.get(version.connector_type_id))) continue;
    firstEligible ??= b;
    for (const r of state.replicasByInstance.get(instance.id) ?? []) {
      if (!replicaTakesNewRoute(r, instance.version_id, pref, nowMs)) continue;
      const candidate = candidateOf(b, r);
      if (!best || compareCandidates(candidate, best.candidate, pref, actionHash) < 0) best = { selection: { binding: b, replica: r }, candidate };
    }
  }
  if (!firstEligible) throw bindingUnavailable(tenantId, req.capability_id);
  if (!best) throw replicaUnavailable(firstEligible.record.instance_id);
  return best.selection;
}

async function createRoute(state: MemoryState, deps: RoutingDeps, tenantId: string, req: ResolveRequest): Promise<RouteView> {
  const nowMs = deps.clock();
  const { binding, replica } = selectReplica(state, tenantId, req, req.topology ?? {}, nowMs);
  const b = binding.record;
  const policy = b.quota_policy_ref === null ? IMPLICIT_DEFAULT_POLICY : state.policies.get(b.quota_policy_ref)!;
  if (!policy.enabled) throw admissionRejected(`admission policy ${policy.policy_ref} is disabled`);
  const instance = state.instances.get(b.instance_id)!;
  const version = state.versions.get(instance.version_id)!;
  const admission = buildReservation(b.quota_policy_ref, policy, {
    tenantId,
    connectorTypeId: version.connector_type_id,
    instanceId: instance.id,
    bindingKey: binding.scopeKey,
  });
  const scopes = attemptScopes(admission, false);
  const exhausted = exhaustedScope(state, scopes);
  if (exhausted) throw capacityExceeded(exhausted.kind);
  if (deps.faults.has('capacity-outside-lock')) await new Promise((resolve) => setImmediate(resolve));
  const assignment: RouteAssignment = buildAssignment({
    actionId: req.action_id,
    capabilityId: req.capability_id,
    tenantId,
    instance,
    manifestDigest: version.record.manifest_digest,
    replica: replica.provision,
    binding: b,
    catalogRevision: state.revision,
    fenceToken: deps.fenceTokens(),
    admission,
    nowMs,
  });
  addToCounters(state, scopes, 1);
  replica.active += 1;
  const route: StoredRoute = { assignment: deepFreeze(assignment), reserved: true, lastSettlement: null, scopes };
  state.routes.set(req.action_id, route);
  state.markReserved(replica.provision.id, req.action_id);
  return viewOf(route);
}

/** [pinned-reacquire], [pinned-replica-conditions], [pinned-precedence]. */
function reacquire(state: MemoryState, deps: RoutingDeps, route: StoredRoute): RouteView {
  const a = route.assignment;
  const scopes = attemptScopes(a.admission, true);
  const exhausted = exhaustedScope(state, scopes);
  if (exhausted) throw capacityExceeded(exhausted.kind);
  const nowMs = deps.clock();
  const replica = state.replicas.get(a.replica_id);
  const instance = state.instances.get(a.instance_id);
  const version = state.versions.get(a.version_id);
  const type = version && state.types.get(version.connector_type_id);
  if (!replica || !replicaTakesRetry(replica, nowMs) || !pinnedTargetValid(a.version_id, instance, version, type)) {
    throw replicaUnavailable(a.instance_id);
  }
  addToCounters(state, scopes, 1);
  replica.active += 1;
  route.reserved = true;
  route.lastSettlement = null;
  route.scopes = scopes;
  state.markReserved(replica.provision.id, a.action_id);
  return viewOf(route);
}

export async function resolve(state: MemoryState, deps: RoutingDeps, tenantId: string, req: ResolveRequest): Promise<RouteView> {
  assertShape<string>('TenantId', tenantId);
  assertShape<ResolveRequest>('ResolveRequest', req);
  const existing = state.routes.get(req.action_id);
  if (!existing) return createRoute(state, deps, tenantId, req);
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
): SettlementResult {
  assertShape<string>('TenantId', tenantId);
  assertShape<string>('ActionId', actionId);
  assertShape('SettlementRequest', { assignment, outcome });
  const stored = state.routes.get(actionId);
  if (!stored || stored.assignment.tenant_id !== tenantId) throw notFound(`route ${actionId}`);
  if (!deps.faults.has('settle-skip-fence') && !jsonEqual(stored.assignment, assignment)) {
    throw fenceLost('the presented assignment differs from the stored one');
  }
  const releaseAgain = !stored.reserved && deps.faults.has('settle-release-twice');
  if (!stored.reserved && !releaseAgain) return { action_id: actionId, released: false, last_settlement: stored.lastSettlement };
  const replica = state.replicas.get(stored.assignment.replica_id)!;
  if (!releaseAgain) {
    for (const s of stored.scopes) if (state.counter(counterKey(s.kind, s.key)) === 0) throw fenceLost(`counter ${s.kind} is already released`);
    addToCounters(state, stored.scopes, -1);
  } else {
    addToCounters(state, stored.scopes.filter((s) => state.counter(counterKey(s.kind, s.key)) > 0), -1);
  }
  replica.active = Math.max(0, replica.active - 1);
  replica.circuit = circuitAfterSettlement(replica.circuit, outcome, stored.assignment.admission, deps.clock());
  stored.reserved = false;
  stored.lastSettlement = outcome;
  state.markReleased(replica.provision.id, actionId);
  return { action_id: actionId, released: true, last_settlement: outcome };
}

/** Freezes a JSON value in depth, so no caller can alter stored state through it. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
