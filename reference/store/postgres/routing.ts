// Route resolution and settlement on PostgreSQL (spec.md §9–§14). Each call
// is one data-pool transaction that begins with the action's advisory lock.
// The domain decides (resolve-decision.ts, settle-decision.ts, the same code
// as the memory store's); the SQL files lock and write (their headers give
// the lock order: replica, then route, then counters in scope order).
import type pg from 'pg';
import type { ScopeKind } from '../../../contract/errors.ts';
import type {
  AdmissionPolicy,
  RouteAssignment,
  RouteView,
  ResolveRequest,
  ScopeReservation,
  SettlementOutcome,
  SettlementResult,
} from '../../../contract/records.ts';
import { buildReservation, IMPLICIT_DEFAULT_POLICY } from '../../domain/admission.ts';
import { buildAssignment } from '../../domain/assignment.ts';
import { circuitAfterSettlement } from '../../domain/circuit.ts';
import type { FaultHooks } from '../../domain/faults.ts';
import type { ReferenceChoices } from '../../domain/choices.ts';
import type { FenceTokenSource } from '../../domain/fence-token.ts';
import { capacityExceeded, fenceLost, replicaUnavailable, storageUnavailable } from '../../../contract/registry-error.ts';
import { capacityRefusal, newRouteScopes, pinnedRouteUsable, resolvePath, retryScopes } from '../../domain/resolve-decision.ts';
import { released, settlePath, unreleased } from '../../domain/settle-decision.ts';
import type { Clock } from '../../domain/time.ts';
import { assertShape } from '../../domain/validation.ts';
import { messageTransaction, read, refusalOf, run, type MessageTransaction } from './database.ts';
import { circuitOf, replicaFactsOf } from './rows.ts';
import {
  chainValid,
  choiceOf,
  openRouteArgs,
  ROUTE_LOCK_RETRIES,
  ROUTE_LOCK_RETRY_MS,
  type ChainRow,
  type EligibleChains,
  type EligibleSet,
  type OpenRouteRow,
} from './route-selection.ts';
import { sql } from './sql.ts';

export interface RoutingContext {
  data: pg.Pool;
  clock: Clock;
  fenceTokens: FenceTokenSource;
  fault: FaultHooks;
  choices: ReferenceChoices;
  /** Eligible bindings per tenant and capability, by catalog publication. */
  eligible: EligibleChains;
}

interface RouteRow {
  tenant_id: string;
  capability_id: string;
  replica_id: string;
  reserved: boolean;
  last_settlement: SettlementOutcome | null;
  reservation_scopes: ScopeReservation[];
  assignment: RouteAssignment;
}

interface LockedRouteRow extends RouteRow {
  pinned_version_id: string;
  status: 'ready' | 'draining' | 'offline';
  lease_expires_at_ms: number;
  capacity: number;
  active_assignments: number;
  consecutive_failures: number;
  circuit_open_until_ms: number;
  replica_version_id: string;
  region: string;
  zone: string;
  capacity_class: string;
  instance_status: 'enabled' | 'disabled' | null;
  instance_version_id: string | null;
  instance_tenant_id: string | null;
  version_status: 'admitted' | 'active' | 'revoked' | null;
  supply_chain_qualified: boolean | null;
  type_enabled: boolean | null;
}

/** A route opened for settlement (open-settle.sql): the route with its locked replica's circuit. */
interface SettleRow {
  tenant_id: string;
  reserved: boolean;
  last_settlement: SettlementOutcome | null;
  assignment: RouteAssignment;
  replica_id: string;
  consecutive_failures: number;
  circuit_open_until_ms: number;
}

const viewOf = (r: Pick<RouteRow, 'assignment' | 'reserved' | 'last_settlement'>): RouteView => ({
  assignment: r.assignment,
  reserved: r.reserved,
  last_settlement: r.last_settlement,
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The limit the SQL checks: the pinned one, or none under the capacity-outside-lock fault. */
const UNCHECKED_LIMIT = Number.MAX_SAFE_INTEGER;

/**
 * The registry error for a statement's refusal (sql/*.sql call
 * fleetproof_refuse); any other error passes through unchanged.
 */
function refused(err: unknown, instanceId: string): unknown {
  const reason = refusalOf(err);
  if (reason === undefined) return err;
  if (reason.startsWith('capacity:')) return capacityExceeded(reason.slice('capacity:'.length) as ScopeKind);
  if (reason === 'replica') return replicaUnavailable(instanceId);
  if (reason === 'fence') return fenceLost('an admission counter of this reservation is already released');
  return storageUnavailable(`a routing statement refused: ${reason}`);
}

/**
 * The deliberate capacity-outside-lock fault: the scopes are checked in a
 * separate transaction and then taken without the limit check, so concurrent
 * attempts can overbook ([admission-never-overbooked]).
 */
async function checkOutsideLock(ctx: RoutingContext, scopes: readonly ScopeReservation[]): Promise<void> {
  for (const s of scopes) {
    const [row] = await read<{ active: number }>(ctx.data, sql('read-counter'), [s.kind, s.key]);
    const refusal = capacityRefusal([s], () => row?.active ?? 0);
    if (refusal) throw refusal;
  }
  await new Promise((resolve) => setImmediate(resolve));
}

function reserveParams(scopes: readonly ScopeReservation[], ctx: RoutingContext): unknown[] {
  const unchecked = ctx.fault.capacityOutsideLock;
  return [scopes.map((s) => s.kind), scopes.map((s) => s.key), scopes.map((s) => (unchecked ? UNCHECKED_LIMIT : s.limit))];
}

/** The opening call again, in the open transaction (after a reload of the bindings, or the reselect fault's delete). */
async function openAgain(
  ctx: RoutingContext,
  tx: MessageTransaction,
  tenantId: string,
  req: ResolveRequest,
  set: EligibleSet | undefined,
  nowMs: number,
): Promise<OpenRow> {
  const [row] = await run<OpenRow>(tx.db, sql('open-route'), openRouteArgs(tenantId, req, set, nowMs, ctx.choices.tiebreakSalt));
  return row!;
}

async function createRoute(
  ctx: RoutingContext,
  tx: MessageTransaction,
  tenantId: string,
  req: ResolveRequest,
  opened: OpenRow,
  cached: EligibleSet | undefined,
  nowMs: number,
): Promise<RouteView> {
  let open = opened;
  let eligible = cached;
  if (open.outcome === 'stale' || !eligible) {
    // The bindings at the current publication, which the shared publication
    // lock taken by the opening keeps current until this transaction ends.
    const rows = await run<ChainRow>(tx.db, sql('routing-bindings'), [tenantId, req.capability_id]);
    const valid = rows.filter((row) => chainValid(row, tenantId, req.capability_id));
    eligible = ctx.eligible.put(tenantId, req.capability_id, open.publication!, valid);
    open = await openAgain(ctx, tx, tenantId, req, eligible, nowMs);
    if (open.outcome === 'stale' || open.outcome === 'route')
      throw storageUnavailable(`the route opening answered ${open.outcome} under its own locks`);
  }
  // Every eligible replica held by a concurrent resolve: a bounded number of
  // further attempts, a pause apart ([route-contention]).
  for (let attempt = 1; open.outcome === 'contended' && attempt <= ROUTE_LOCK_RETRIES; attempt++) {
    await sleep(ROUTE_LOCK_RETRY_MS);
    open = await openAgain(ctx, tx, tenantId, req, eligible, nowMs);
  }
  const { chain, replica, provision } = choiceOf(open, eligible, tenantId, req, nowMs, ctx.choices.equalPriorityInstance);
  const policy: AdmissionPolicy = chain.quota_policy_ref === null ? IMPLICIT_DEFAULT_POLICY : policyOfChain(chain);
  const admission = buildReservation(chain.quota_policy_ref, policy, {
    tenantId,
    connectorTypeId: chain.version_type_id!,
    instanceId: chain.instance_id,
    bindingKey: chain.scope_key,
  });
  // The capacity check of [admission-all-or-nothing] is the reservation
  // itself (fleetproof_reserve_scopes), under the counters' row locks.
  const scopes = newRouteScopes(policy, admission);
  if (ctx.fault.capacityOutsideLock) await checkOutsideLock(ctx, scopes);
  const assignment = buildAssignment({
    actionId: req.action_id,
    capabilityId: req.capability_id,
    tenantId,
    instance: {
      id: chain.instance_id,
      connector_type_id: chain.instance_type_id!,
      version_id: chain.version_id!,
      tenant_id: chain.instance_tenant_id!,
      config_revision: chain.config_revision!,
      secret_provider_ref: chain.secret_provider_ref!,
      status: chain.instance_status!,
    },
    manifestDigest: chain.manifest_digest!,
    replica: provision,
    binding: {
      tenant_id: tenantId,
      capability_id: req.capability_id,
      instance_id: chain.instance_id,
      priority: chain.priority,
      policy_revision: chain.policy_revision,
      credential_revision_ref: chain.credential_revision_ref,
      quota_policy_ref: chain.quota_policy_ref,
      enabled: chain.enabled,
    },
    catalogRevision: chain.catalog_revision,
    fenceToken: ctx.fenceTokens(),
    admission,
    nowMs,
  });
  // The reservation, the replica unit and the route are written, and
  // committed, in one round trip; a refusal aborts all of it.
  await tx
    .commitWith(sql('create-route'), [
      ...reserveParams(scopes, ctx),
      replica.replica_id,
      req.action_id,
      tenantId,
      req.capability_id,
      assignment.fence_token,
      JSON.stringify(scopes),
      JSON.stringify(assignment),
      nowMs,
      assignment.version_id,
    ])
    .catch((err) => {
      throw refused(err, chain.instance_id);
    });
  return { assignment, reserved: true, last_settlement: null };
}

function policyOfChain(c: ChainRow): AdmissionPolicy {
  return {
    policy_ref: c.policy_ref!,
    revision: c.policy_revision_number!,
    enabled: c.policy_enabled!,
    max_global_in_flight: c.max_global_in_flight!,
    max_tenant_in_flight: c.max_tenant_in_flight!,
    max_connector_type_in_flight: c.max_connector_type_in_flight!,
    max_instance_in_flight: c.max_instance_in_flight!,
    max_binding_in_flight: c.max_binding_in_flight!,
    max_tenant_retry_in_flight: c.max_tenant_retry_in_flight!,
    circuit_failure_threshold: c.circuit_failure_threshold!,
    circuit_open_ms: c.circuit_open_ms!,
  };
}

/** [pinned-reacquire], [pinned-replica-conditions], [pinned-precedence]. */
async function reacquire(ctx: RoutingContext, tx: MessageTransaction, actionId: string): Promise<RouteView> {
  const [locked] = await run<LockedRouteRow>(tx.db, sql('lock-route-replica'), [actionId]);
  const l = locked!;
  const a = l.assignment;
  const replicaUsable = pinnedRouteUsable(
    l.pinned_version_id,
    {
      replica: replicaFactsOf(l, l.replica_version_id),
      instance:
        l.instance_status === null
          ? undefined
          : {
              id: a.instance_id,
              connector_type_id: '',
              version_id: l.instance_version_id!,
              tenant_id: l.instance_tenant_id!,
              config_revision: 0,
              secret_provider_ref: '',
              status: l.instance_status,
            },
      version: l.version_status === null ? undefined : { status: l.version_status, supply_chain_qualified: l.supply_chain_qualified! },
      type: l.type_enabled === null ? undefined : { enabled: l.type_enabled },
    },
    ctx.clock(),
  );
  const scopes = retryScopes(a.admission);
  if (ctx.fault.capacityOutsideLock) await checkOutsideLock(ctx, scopes);
  // fleetproof_reacquire_route applies reacquireRefusal's precedence in SQL:
  // the first scope at its limit, under its row lock, before an unusable replica.
  await tx
    .commitWith(sql('reacquire-route'), [...reserveParams(scopes, ctx), l.replica_id, replicaUsable, actionId, JSON.stringify(scopes)])
    .catch((err) => {
      throw refused(err, a.instance_id);
    });
  // A retry keeps the outcome that released the previous attempt ([assignment-read]).
  return { assignment: a, reserved: true, last_settlement: locked!.last_settlement };
}

type OpenRow = OpenRouteRow<RouteRow>;

export async function resolve(ctx: RoutingContext, tenantId: string, req: ResolveRequest): Promise<RouteView> {
  assertShape<string>('TenantId', tenantId);
  assertShape<ResolveRequest>('ResolveRequest', req);
  const nowMs = ctx.clock();
  const cached = ctx.eligible.get(tenantId, req.capability_id);
  // One message opens the transaction: the action's lock and its route, then
  // for a new route the publication lock and the selected replica's lock.
  return messageTransaction(
    ctx.data,
    sql('open-route'),
    openRouteArgs(tenantId, req, cached, nowMs, ctx.choices.tiebreakSalt),
    async (tx) => {
      const opened = tx.opened.rows[0] as OpenRow;
      const existing = opened.outcome === 'route' ? opened.route! : undefined;
      switch (resolvePath(existing, tenantId, req, ctx.fault)) {
        case 'select':
          return createRoute(ctx, tx, tenantId, req, opened, cached, nowMs);
        case 'reuse':
          return viewOf(existing!);
        case 'reselect': {
          await run(tx.db, sql('delete-route'), [req.action_id]);
          const current = ctx.eligible.get(tenantId, req.capability_id);
          return createRoute(ctx, tx, tenantId, req, await openAgain(ctx, tx, tenantId, req, current, nowMs), current, nowMs);
        }
        case 'reacquire':
          return reacquire(ctx, tx, req.action_id);
      }
    },
  );
}

export async function route(ctx: RoutingContext, tenantId: string, actionId: string): Promise<RouteView | null> {
  assertShape<string>('TenantId', tenantId);
  assertShape<string>('ActionId', actionId);
  const [row] = await read<RouteRow>(ctx.data, sql('read-route'), [actionId]);
  return row && row.tenant_id === tenantId ? viewOf(row) : null;
}

/** [settle-fence], [settle-release-once], [settle-idempotent], [circuit-counting]. */
export async function settle(
  ctx: RoutingContext,
  tenantId: string,
  actionId: string,
  assignment: RouteAssignment,
  outcome: SettlementOutcome,
): Promise<SettlementResult> {
  assertShape<string>('TenantId', tenantId);
  assertShape<string>('ActionId', actionId);
  assertShape('SettlementRequest', { assignment, outcome });
  return messageTransaction(ctx.data, sql('open-settle'), [actionId], async (tx) => {
    const found = tx.opened.rows[0] as SettleRow | undefined;
    const path = settlePath(found, tenantId, actionId, assignment, ctx.fault);
    const stored = found!; // settlePath refuses a missing route
    if (path === 'unreleased') return unreleased(actionId, stored.last_settlement);
    const circuit = circuitAfterSettlement(circuitOf(stored), outcome, stored.assignment.admission, ctx.clock(), ctx.choices);
    const [result] = await tx
      .commitWith<{ routes: number }>(sql('settle-route'), [
        actionId,
        outcome,
        stored.replica_id,
        circuit.consecutive_failures,
        circuit.open_until_ms,
        path === 'release-again',
      ])
      .catch((err) => {
        throw refused(err, stored.assignment.instance_id);
      });
    if (result!.routes === 0) {
      // Lease expiry released this reservation after it was read: nothing was left to release.
      const [now] = await run<RouteRow>(tx.db, sql('read-route'), [actionId]);
      return unreleased(actionId, now!.last_settlement);
    }
    return released(actionId, outcome);
  });
}
