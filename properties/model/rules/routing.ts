// Resolving routes (spec.md §9, §12), from the text. A new action may land on
// any replica of the best rank class: the contract fixes priority, region,
// zone and load, and leaves the tie-break to the implementation, so every
// tied replica is a branch. A known action is pinned: held, retried on its
// replica, or refused — never moved.
import type { ResolveRequest, RouteAssignment, RouteView, TopologyPreference } from '../../../contract/records.ts';
import { compareBytes } from '../json.ts';
import { addToCounters, counterOf, type ModelReplica, type ModelState } from '../model-state.ts';
import { failure, failures, success, type Branch } from './outcome.ts';
import { attemptScopes, IMPLICIT_POLICY, pinnedReservation } from './scopes.ts';

/** What the model predicts of a new assignment: everything but the fresh token and the instant. */
export type PredictedAssignment = Omit<RouteAssignment, 'fence_token' | 'assigned_at'>;

interface Chain {
  binding: ModelState['bindings'][string];
  instance: ModelState['instances'][string];
  version: ModelState['versions'][string];
}

/** Bindings of (tenant, capability) that pass [catalog-tenant-visibility], by priority. */
export function validChains(s: ModelState, tenant: string, capability: string): Chain[] {
  const chains: Chain[] = [];
  for (const binding of Object.values(s.bindings)) {
    if (binding.tenant_id !== tenant || binding.capability_id !== capability || !binding.enabled) continue;
    const instance = s.instances[binding.instance_id];
    if (!instance || instance.status !== 'enabled' || instance.tenant_id !== tenant) continue;
    const version = s.versions[instance.version_id];
    if (!version || version.status !== 'active' || !s.types[version.type]?.enabled || !version.capabilities.includes(capability)) continue;
    chains.push({ binding, instance, version });
  }
  return chains.sort((a, b) => a.binding.priority - b.binding.priority);
}

export function replicasOf(s: ModelState, instanceId: string): ModelReplica[] {
  return Object.values(s.replicas)
    .filter((r) => r.provision.instance_id === instanceId)
    .sort((a, b) => compareBytes(a.provision.id, b.provision.id));
}

/** [route-eligibility]. */
function takesNewRoute(r: ModelReplica, instanceVersion: string, pref: TopologyPreference, now: number): boolean {
  const t = r.provision.topology;
  return (
    r.provision.version_id === instanceVersion &&
    r.health.status === 'ready' &&
    r.leaseMs > now &&
    r.active < r.health.capacity &&
    r.openUntil <= now &&
    (pref.capacity_class === undefined || t.capacity_class === pref.capacity_class) &&
    (pref.allow_cross_region !== false || pref.region === undefined || t.region === pref.region)
  );
}

/** [route-order] steps 1–4; step 5 is implementation-defined, so equal ranks tie. */
function rankOf(priority: number, r: ModelReplica, pref: TopologyPreference): number[] {
  const t = r.provision.topology;
  return [
    priority,
    pref.region === undefined || pref.region === t.region ? 0 : 1,
    pref.zone === undefined || pref.zone === t.zone ? 0 : 1,
    r.active,
  ];
}

const compareRanks = (a: number[], b: number[]) => a.reduce((d, v, i) => d || v - b[i]!, 0);

export function resolveNew(s: ModelState, tenant: string, req: ResolveRequest, now: number): Branch<PredictedAssignment>[] {
  const chains = validChains(s, tenant, req.capability_id);
  if (chains.length === 0) return [failure(s, 'BINDING_UNAVAILABLE', { tenant_id: tenant, capability_id: req.capability_id })];
  const pref = req.topology ?? {};
  const candidates = chains.flatMap((chain) =>
    replicasOf(s, chain.instance.id)
      .filter((r) => takesNewRoute(r, chain.instance.version_id, pref, now))
      .map((r) => ({ chain, r, rank: rankOf(chain.binding.priority, r, pref) })),
  );
  if (candidates.length === 0) {
    // [route-replica-unavailable]: the instance of the first eligible binding; equal priorities tie.
    const first = chains[0]!.binding.priority;
    return failures(
      s,
      chains
        .filter((c) => c.binding.priority === first)
        .map((c) => ({ code: 'REPLICA_UNAVAILABLE' as const, details: { instance_id: c.instance.id } })),
    );
  }
  const best = candidates.reduce((m, c) => (compareRanks(c.rank, m) < 0 ? c.rank : m), candidates[0]!.rank);
  const branches = candidates
    .filter((c) => compareRanks(c.rank, best) === 0)
    .flatMap(({ chain, r }) => newRouteOn(s, tenant, req, chain, r));
  // Tied replicas of one binding fail alike; one branch per distinct refusal.
  const refusals = new Set<string>();
  return branches.filter((b) => b.outcome.ok || (!refusals.has(JSON.stringify(b.outcome)) && refusals.add(JSON.stringify(b.outcome))));
}

/** [route-admission-policy], [admission-all-or-nothing], [route-atomic] for one chosen replica. */
function newRouteOn(s: ModelState, tenant: string, req: ResolveRequest, chain: Chain, r: ModelReplica): Branch<PredictedAssignment>[] {
  const { binding, instance, version } = chain;
  const policy = binding.quota_policy_ref === null ? IMPLICIT_POLICY : s.policies[binding.quota_policy_ref]!;
  const admission = pinnedReservation(binding.quota_policy_ref, policy, {
    tenant,
    capability: req.capability_id,
    connectorType: version.type,
    instance: instance.id,
  });
  const exhausted = admission.base_scopes.find((scope) => counterOf(s, scope.kind, scope.key) >= scope.limit);
  const full = exhausted ? [failure<PredictedAssignment>(s, 'CAPACITY_EXCEEDED', { scope: exhausted.kind })] : [];
  // Admission rules in any order (decision 26): a disabled policy and a full scope are both refusals.
  if (!policy.enabled) return [failure<PredictedAssignment>(s, 'ADMISSION_REJECTED'), ...full];
  if (exhausted) return full;
  const p = r.provision;
  const predicted: PredictedAssignment = {
    action_id: req.action_id,
    capability_id: req.capability_id,
    tenant_id: tenant,
    instance_id: instance.id,
    version_id: instance.version_id,
    manifest_digest: version.manifestDigest,
    replica_id: p.id,
    endpoint: p.endpoint,
    peer_principal_id: p.peer_principal_id,
    peer_principal_kind: p.peer_principal_kind,
    peer_did: p.peer_did,
    trust_domain: p.trust_domain,
    transport_profile: p.transport_profile,
    topology: p.topology,
    catalog_revision: s.revision,
    binding_policy_revision: binding.policy_revision,
    credential_revision_ref: binding.credential_revision_ref,
    quota_policy_ref: binding.quota_policy_ref,
    replica_health_revision: r.health.health_revision,
    admission,
  };
  const next = structuredClone(s);
  addToCounters(next, admission.base_scopes, 1);
  next.replicas[p.id]!.active += 1;
  // The fence token and instant are filled in from the observation when this branch is taken.
  next.routes[req.action_id] = {
    assignment: { ...predicted, fence_token: '', assigned_at: '' },
    reserved: true,
    last: null,
    held: admission.base_scopes,
  };
  return [success(next, predicted)];
}

/** [pinned-replica-conditions]: may the pinned replica take a retry now? */
function pinnedTargetTakesRetry(s: ModelState, a: RouteAssignment, now: number): boolean {
  const r = s.replicas[a.replica_id];
  const instance = s.instances[a.instance_id];
  const version = s.versions[a.version_id];
  return (
    r !== undefined &&
    (r.health.status === 'ready' || r.health.status === 'draining') &&
    r.leaseMs > now &&
    r.active < r.health.capacity &&
    r.openUntil <= now &&
    instance !== undefined &&
    instance.status === 'enabled' &&
    instance.version_id === a.version_id &&
    version !== undefined &&
    version.status === 'active' &&
    s.types[version.type]?.enabled === true
  );
}

/** [pinned-conflict], [pinned-reserved], [pinned-reacquire], [pinned-precedence]. */
export function resolveExisting(s: ModelState, tenant: string, req: ResolveRequest, now: number): Branch<RouteView>[] {
  const route = s.routes[req.action_id]!;
  const a = route.assignment;
  if (a.tenant_id !== tenant || a.capability_id !== req.capability_id) return [failure(s, 'CONFLICT')];
  if (route.reserved) return [success(s, { assignment: a, reserved: true, last_settlement: route.last })];
  const scopes = attemptScopes(a.admission, true);
  const exhausted = scopes.find((scope) => counterOf(s, scope.kind, scope.key) >= scope.limit);
  if (exhausted) return [failure(s, 'CAPACITY_EXCEEDED', { scope: exhausted.kind })];
  if (!pinnedTargetTakesRetry(s, a, now)) return [failure(s, 'REPLICA_UNAVAILABLE', { instance_id: a.instance_id })];
  const next = structuredClone(s);
  addToCounters(next, scopes, 1);
  next.replicas[a.replica_id]!.active += 1;
  // A retry keeps the outcome that released the previous attempt ([assignment-read]).
  Object.assign(next.routes[req.action_id]!, { reserved: true, held: scopes });
  return [success(next, { assignment: a, reserved: true, last_settlement: route.last })];
}
