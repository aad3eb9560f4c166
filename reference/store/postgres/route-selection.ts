// Which binding and replica take a new action (spec.md [route-binding-unavailable],
// [route-eligibility], [route-order], [route-contention]). The binding chain
// is decided by the shared domain rule over rows loaded under the shared
// publication lock, and kept per publication; the replica is chosen and
// locked by fleetproof_open_route, which must filter and order in SQL to lock
// the winner with SKIP LOCKED.
import type { ReplicaProvision, ResolveRequest, TopologyPreference } from '../../../contract/records.ts';
import { tiebreakHash } from '../../domain/digest.ts';
import { bindingChainValid, replicaTakesNewRoute } from '../../domain/eligibility.ts';
import { namedBinding } from '../../domain/resolve-decision.ts';
import { bindingUnavailable, replicaUnavailable, storageUnavailable } from '../../../contract/registry-error.ts';
import { provisionOf, replicaFactsOf, type ReplicaRow } from './rows.ts';
import { arrayText } from './sql.ts';

/** A binding with the facts of its chain (instance, version, type), as the SQL loads it. */
export interface ChainFacts {
  instance_id: string;
  priority: number;
  policy_revision: number;
  credential_revision_ref: string | null;
  quota_policy_ref: string | null;
  enabled: boolean;
  scope_key: string;
  instance_type_id: string | null;
  version_id: string | null;
  instance_tenant_id: string | null;
  config_revision: number | null;
  secret_provider_ref: string | null;
  instance_status: 'enabled' | 'disabled' | null;
  version_status: 'admitted' | 'active' | 'revoked' | null;
  supply_chain_qualified: boolean | null;
  version_type_id: string | null;
  type_enabled: boolean | null;
  implements_capability: boolean;
}

/** One row of routing-bindings.sql: a binding with its chain and policy. */
export interface ChainRow extends ChainFacts {
  catalog_revision: number;
  manifest_digest: string | null;
  policy_ref: string | null;
  policy_revision_number: number | null;
  policy_enabled: boolean | null;
  max_global_in_flight: number | null;
  max_tenant_in_flight: number | null;
  max_connector_type_in_flight: number | null;
  max_instance_in_flight: number | null;
  max_binding_in_flight: number | null;
  max_tenant_retry_in_flight: number | null;
  circuit_failure_threshold: number | null;
  circuit_open_ms: number | null;
}

/** The replica fleetproof_open_route selected and locked. */
export interface SelectedRow extends ReplicaRow {
  instance_id: string;
  version_id: string;
  region: string;
  zone: string;
  capacity_class: string;
}

/** What open-route.sql answers (sql/functions/fleetproof_open_route.sql); `route` is the existing route. */
export interface OpenRouteRow<Route> {
  outcome: 'route' | 'stale' | 'selected' | 'none' | 'contended';
  /** The current publication (revision and revision row xmin); null for 'route'. */
  publication: string | null;
  route: Route | null;
  replica: SelectedRow | null;
  chain: ChainRow | null;
}

/** Contention retries (as getaip/core): 32 more attempts, 1 ms apart. */
export const ROUTE_LOCK_RETRIES = 32;
export const ROUTE_LOCK_RETRY_MS = 1;

/** [catalog-tenant-visibility] applied to one loaded binding row. */
export function chainValid(row: ChainFacts, tenantId: string, capabilityId: string): boolean {
  return bindingChainValid(
    {
      tenant_id: tenantId,
      capability_id: capabilityId,
      instance_id: row.instance_id,
      priority: row.priority,
      policy_revision: row.policy_revision,
      credential_revision_ref: row.credential_revision_ref,
      quota_policy_ref: row.quota_policy_ref,
      enabled: row.enabled,
    },
    row.instance_status === null
      ? undefined
      : {
          id: row.instance_id,
          connector_type_id: row.instance_type_id!,
          version_id: row.version_id!,
          tenant_id: row.instance_tenant_id!,
          config_revision: row.config_revision!,
          secret_provider_ref: row.secret_provider_ref!,
          status: row.instance_status,
        },
    row.version_status === null
      ? undefined
      : {
          status: row.version_status,
          supply_chain_qualified: row.supply_chain_qualified!,
          connector_type_id: row.version_type_id!,
          implements: (c) => c === capabilityId && row.implements_capability,
          declaresProfile: () => false,
        },
    row.type_enabled === null ? undefined : { enabled: row.type_enabled },
  );
}

/**
 * The bindings of one tenant and capability that pass [route-binding-unavailable]
 * at one catalog publication, as the arguments of open-route.sql. Which
 * bindings are eligible depends on catalog records only, and every catalog
 * write group changes the publication (revision and revision row) in its
 * transaction, so a set loaded at the publication a resolve finds under the
 * shared publication lock is exactly the set routing-bindings.sql would load
 * in that transaction.
 */
export interface EligibleSet {
  readonly publication: string;
  readonly count: number;
  readonly firstInstanceId: string | undefined;
  /** The instance of the last eligible binding sharing the first one's priority. */
  readonly lastOfFirstPriorityId: string | undefined;
  /** The arguments as array text, rendered once. */
  readonly instanceIds: string;
  readonly versionIds: string;
  readonly priorities: string;
  /** Characters of the rendered arguments, for the cache bound. */
  readonly size: number;
}

const NO_SET = { publication: null, instanceIds: '{}', versionIds: '{}', priorities: '{}' };

/** Default bound of the eligible-binding cache, in characters of rendered arguments (about 4 KB per 100 bindings). */
export const ELIGIBLE_CACHE_CHARS = 16 * 1024 * 1024;

/** Eligible sets by tenant and capability, least recently used evicted first. */
export class EligibleChains {
  private readonly sets = new Map<string, EligibleSet>();
  private size = 0;

  constructor(private readonly maxSize: number = ELIGIBLE_CACHE_CHARS) {}

  private static key(tenantId: string, capabilityId: string): string {
    return `${tenantId.length}:${tenantId}${capabilityId}`;
  }

  get(tenantId: string, capabilityId: string): EligibleSet | undefined {
    const key = EligibleChains.key(tenantId, capabilityId);
    const set = this.sets.get(key);
    if (set) {
      this.sets.delete(key);
      this.sets.set(key, set);
    }
    return set;
  }

  /** Records the eligible rows (in routing-bindings.sql order) loaded at `publication`. */
  put(tenantId: string, capabilityId: string, publication: string, eligible: readonly ChainRow[]): EligibleSet {
    const instanceIds = arrayText(eligible.map((c) => c.instance_id));
    const versionIds = arrayText(eligible.map((c) => c.version_id!));
    const priorities = arrayText(eligible.map((c) => c.priority));
    const set: EligibleSet = {
      publication,
      count: eligible.length,
      firstInstanceId: eligible[0]?.instance_id,
      lastOfFirstPriorityId: namedBinding(eligible, (c) => c.priority, 'last')?.instance_id,
      instanceIds,
      versionIds,
      priorities,
      size: instanceIds.length + versionIds.length + priorities.length + 64,
    };
    const key = EligibleChains.key(tenantId, capabilityId);
    const old = this.sets.get(key);
    if (old) {
      this.sets.delete(key);
      this.size -= old.size;
    }
    this.sets.set(key, set);
    this.size += set.size;
    for (const [k, s] of this.sets) {
      if (this.size <= this.maxSize || s === set) break;
      this.sets.delete(k);
      this.size -= s.size;
    }
    return set;
  }
}

/** The arguments of open-route.sql for a request and the eligible set the caller holds (if any). */
export function openRouteArgs(
  tenantId: string,
  req: ResolveRequest,
  set: EligibleSet | undefined,
  nowMs: number,
  tiebreakSalt: number,
): unknown[] {
  const pref: TopologyPreference = req.topology ?? {};
  const residency = pref.allow_cross_region === false && pref.region !== undefined ? pref.region : null;
  const s = set ?? NO_SET;
  return [
    req.action_id,
    tenantId,
    req.capability_id,
    s.publication,
    s.instanceIds,
    s.versionIds,
    s.priorities,
    nowMs,
    pref.capacity_class ?? null,
    residency,
    pref.region ?? null,
    pref.zone ?? null,
    tiebreakHash(req.action_id, tiebreakSalt),
  ];
}

export interface Choice {
  chain: ChainRow;
  replica: SelectedRow;
  provision: ReplicaProvision;
}

/**
 * The binding and replica a new route takes, from an opening that found no
 * route at the eligible set's publication; REPLICA_UNAVAILABLE or
 * BINDING_UNAVAILABLE when it selected none.
 */
export function choiceOf(
  open: OpenRouteRow<unknown>,
  eligible: EligibleSet,
  tenantId: string,
  req: ResolveRequest,
  nowMs: number,
  named: 'first' | 'last' = 'first',
): Choice {
  if (open.outcome === 'none' || open.outcome === 'contended') {
    if (eligible.firstInstanceId === undefined) throw bindingUnavailable(tenantId, req.capability_id);
    throw replicaUnavailable(named === 'first' ? eligible.firstInstanceId : eligible.lastOfFirstPriorityId!);
  }
  const { replica: selected, chain } = open;
  if (open.outcome !== 'selected' || !selected || !chain) throw storageUnavailable(`the route opening answered ${open.outcome}`);
  // The SQL filter is the domain rule restated for locking, and the chain was
  // eligible at this publication; a disagreement is a defect.
  if (!chainValid(chain, tenantId, req.capability_id))
    throw storageUnavailable(`binding of ${chain.instance_id} was selected against [route-binding-unavailable]`);
  if (!replicaTakesNewRoute(replicaFactsOf(selected, selected.version_id), chain.version_id!, req.topology ?? {}, nowMs)) {
    throw storageUnavailable(`replica ${selected.replica_id} was selected against [route-eligibility]`);
  }
  return { chain, replica: selected, provision: provisionOf(selected) };
}
