// Which binding and replica take a new action (spec.md [route-binding-unavailable],
// [route-eligibility], [route-order], [route-contention]). The binding chain
// is decided by the shared domain rule over rows loaded under the shared
// publication lock; the replica is chosen and locked by select-replica.sql,
// which must filter and order in SQL to lock the winner with SKIP LOCKED.
import type { ReplicaProvision, ResolveRequest, TopologyPreference } from '../../../contract/records.ts';
import { tiebreakHash } from '../../domain/digest.ts';
import { bindingChainValid, replicaTakesNewRoute } from '../../domain/eligibility.ts';
import { bindingUnavailable, replicaUnavailable, storageUnavailable } from '../../domain/registry-error.ts';
import { run, type Db } from './database.ts';
import { circuitOf, provisionOf, type ReplicaRow } from './rows.ts';
import { sql } from './sql.ts';

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

interface SelectedRow extends ReplicaRow {
  instance_id: string;
  version_id: string;
  region: string;
  zone: string;
  capacity_class: string;
  priority: number;
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Choice {
  chain: ChainRow;
  replica: SelectedRow;
  provision: ReplicaProvision;
}

export async function chooseReplica(db: Db, tenantId: string, req: ResolveRequest, rows: ChainRow[], nowMs: number): Promise<Choice> {
  const eligible = rows.filter((row) => chainValid(row, tenantId, req.capability_id));
  if (eligible.length === 0) throw bindingUnavailable(tenantId, req.capability_id);
  const pref: TopologyPreference = req.topology ?? {};
  const residency = pref.allow_cross_region === false && pref.region !== undefined ? pref.region : null;
  const filter = [eligible.map((c) => c.instance_id), eligible.map((c) => c.version_id), nowMs, pref.capacity_class ?? null, residency];
  const params = [...filter.slice(0, 2), eligible.map((c) => c.priority), ...filter.slice(2), pref.region ?? null, pref.zone ?? null, tiebreakHash(req.action_id)];
  for (let attempt = 0; attempt <= ROUTE_LOCK_RETRIES; attempt++) {
    const [selected] = await run<SelectedRow>(db, sql('select-replica'), params);
    if (selected) {
      const chain = eligible.find((c) => c.instance_id === selected.instance_id)!;
      const facts = {
        version_id: selected.version_id,
        status: selected.status,
        lease_expires_at_ms: selected.lease_expires_at_ms,
        capacity: selected.capacity,
        active: selected.active_assignments,
        ...circuitOf(selected),
        topology: { region: selected.region, zone: selected.zone, capacity_class: selected.capacity_class },
      };
      // The SQL filter is the domain rule restated for locking; a disagreement is a defect.
      if (!replicaTakesNewRoute(facts, chain.version_id!, pref, nowMs)) throw storageUnavailable(`replica ${selected.replica_id} was selected against [route-eligibility]`);
      return { chain, replica: selected, provision: provisionOf(selected) };
    }
    const [{ candidate }] = (await run<{ candidate: boolean }>(db, sql('replica-candidate-exists'), filter)) as [{ candidate: boolean }];
    if (!candidate) break;
    await sleep(ROUTE_LOCK_RETRY_MS);
  }
  throw replicaUnavailable(eligible[0]!.instance_id);
}
