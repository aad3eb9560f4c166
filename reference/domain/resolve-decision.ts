// What a resolve does (spec.md §9–§12), decided from what a store read under
// the action's lock: the stored route, the selection, the policy, the scopes'
// counters, the pinned replica and the clock. Both stores lock, read and write
// around these functions, so one decision tree (and one set of refusals)
// serves them both.
import type {
  AdmissionPolicy,
  AdmissionReservation,
  ConnectorInstance,
  ConnectorType,
  ResolveRequest,
  RouteAssignment,
  ScopeReservation,
} from '../../contract/records.ts';
import { attemptScopes } from './admission.ts';
import { pinnedTargetValid, replicaTakesRetry, type ReplicaFacts, type VersionFacts } from './eligibility.ts';
import {
  admissionRejected,
  bindingUnavailable,
  capacityExceeded,
  conflict,
  replicaUnavailable,
  type RegistryError,
} from '../../contract/registry-error.ts';

/** The action's stored route, as far as the choice of path needs it. */
interface StoredRouteFacts {
  readonly assignment: Pick<RouteAssignment, 'tenant_id' | 'capability_id'>;
  readonly reserved: boolean;
}

/**
 * select: no route yet, choose a binding and replica; reuse: answer the
 * reserved route as stored ([pinned-reserved]); reacquire: retry the pinned
 * route ([pinned-reacquire]).
 */
type ResolvePath = 'select' | 'reuse' | 'reacquire';

/** The path of a resolve, or CONFLICT when the action is routed for another tenant or capability. */
export function resolvePath(existing: StoredRouteFacts | undefined, tenantId: string, req: ResolveRequest): ResolvePath {
  if (!existing) return 'select';
  const a = existing.assignment;
  if (a.tenant_id !== tenantId || a.capability_id !== req.capability_id) {
    throw conflict(`action ${req.action_id} is already routed with a different tenant or capability`);
  }
  return existing.reserved ? 'reuse' : 'reacquire';
}

/**
 * [route-binding-unavailable], [route-replica-unavailable]: the refusal when
 * no replica was selected. `firstEligibleInstanceId` is the instance of the
 * first eligible binding in priority order, undefined when none is eligible.
 */
export function noReplicaRefusal(tenantId: string, capabilityId: string, firstEligibleInstanceId: string | undefined): RegistryError {
  return firstEligibleInstanceId === undefined ? bindingUnavailable(tenantId, capabilityId) : replicaUnavailable(firstEligibleInstanceId);
}

/**
 * The eligible binding whose instance [route-replica-unavailable] names, from
 * bindings in priority order: the first, or the last of those sharing the
 * lowest priority (which of them is open, decision 30).
 */
export function namedBinding<T extends object>(
  eligible: readonly T[],
  priorityOf: (t: T) => number,
  pick: 'first' | 'last',
): T | undefined {
  const first = eligible[0];
  if (first === undefined || pick === 'first') return first;
  let named = first;
  for (const b of eligible) {
    if (priorityOf(b) !== priorityOf(first)) break;
    named = b;
  }
  return named;
}

/** The scopes a new route reserves, once the selected binding's policy admits new routes at all. */
export function newRouteScopes(policy: AdmissionPolicy, admission: AdmissionReservation): readonly ScopeReservation[] {
  if (!policy.enabled) throw admissionRejected(`admission policy ${policy.policy_ref} is disabled`);
  return attemptScopes(admission, false);
}

/** [admission-all-or-nothing]: CAPACITY_EXCEEDED for the first scope at its limit, or null when all have room. */
export function capacityRefusal(scopes: readonly ScopeReservation[], activeOf: (s: ScopeReservation) => number): RegistryError | null {
  for (const s of scopes) if (activeOf(s) >= s.limit) return capacityExceeded(s.kind);
  return null;
}

/** What a retry of a pinned route reads: its replica and the chain it is pinned to (undefined: gone). */
interface PinnedFacts {
  readonly replica: ReplicaFacts | undefined;
  readonly instance: ConnectorInstance | undefined;
  readonly version: Pick<VersionFacts, 'status' | 'supply_chain_qualified'> | undefined;
  readonly type: Pick<ConnectorType, 'enabled'> | undefined;
}

/** [pinned-replica-conditions]: may the pinned replica and chain take the retry? */
export function pinnedRouteUsable(pinnedVersionId: string, f: PinnedFacts, nowMs: number): boolean {
  return (
    f.replica !== undefined && replicaTakesRetry(f.replica, nowMs) && pinnedTargetValid(pinnedVersionId, f.instance, f.version, f.type)
  );
}

/** [pinned-precedence]: a scope at its limit refuses before an unusable replica; null when the retry proceeds. */
export function reacquireRefusal(exhausted: RegistryError | null, usable: boolean, instanceId: string): RegistryError | null {
  return exhausted ?? (usable ? null : replicaUnavailable(instanceId));
}

/** The scopes a retry of a pinned route reserves: the pinned base scopes and the retry scope. */
export function retryScopes(admission: AdmissionReservation): readonly ScopeReservation[] {
  return attemptScopes(admission, true);
}
