// Route resolution and settlement on PostgreSQL (spec.md §9–§14). Each is one
// call of a plpgsql function, one statement committed on its own, so one
// round trip: fleetproof_resolve and fleetproof_settle decide with the
// domain's rules restated in SQL and write in the same call (their headers
// give the locking). This file prepares the arguments and maps the outcome
// to the answer or the registry error; the store behaviour suite and the
// parity tests hold the answers to the memory store's.
import type pg from 'pg';
import type { ScopeKind } from '../../../contract/errors.ts';
import type { RouteAssignment, RouteView, ResolveRequest, SettlementOutcome, SettlementResult } from '../../../contract/records.ts';
import {
  admissionRejected,
  bindingUnavailable,
  capacityExceeded,
  conflict,
  fenceLost,
  notFound,
  type RegistryError,
  replicaUnavailable,
  storageUnavailable,
} from '../../../contract/registry-error.ts';
import type { ReferenceChoices } from '../../domain/choices.ts';
import type { FenceTokenSource } from '../../domain/fence-token.ts';
import { released, settlePath, unreleased } from '../../domain/settle-decision.ts';
import type { Clock } from '../../domain/time.ts';
import { assertShape } from '../../domain/validation.ts';
import { read } from './database.ts';
import type { ResolveTurns } from './resolve-turns.ts';
import { resolveArgs, turnKey, type EligibleChains } from './route-selection.ts';
import { sql } from './sql.ts';

export interface RoutingContext {
  data: pg.Pool;
  clock: Clock;
  fenceTokens: FenceTokenSource;
  choices: ReferenceChoices;
  /** Eligible bindings per tenant and capability, by catalog publication. */
  eligible: EligibleChains;
  /** Turns for resolves that meet the same candidate replicas ([route-contention]). */
  turns: ResolveTurns;
}

interface RouteRow {
  tenant_id: string;
  reserved: boolean;
  last_settlement: SettlementOutcome | null;
  assignment: RouteAssignment;
}

/** What resolve.sql answers (sql/functions/fleetproof_resolve.sql). */
interface ResolveRow {
  outcome: 'route' | 'created' | 'conflict' | 'binding_unavailable' | 'replica_unavailable' | 'contended';
  /** The instance a refusal names. */
  detail: string | null;
  assignment: RouteAssignment | null;
  reserved: boolean;
  last_settlement: SettlementOutcome | null;
  /** Set when the eligible bindings were read again, at this publication. */
  publication: string | null;
  keys: string[] | null;
  tier_ends: number[] | null;
  /** For a new route: whether its replica was the only candidate with room (resolve-turns.ts). */
  alone: boolean | null;
}

/** What settle.sql answers (sql/functions/fleetproof_settle.sql). */
interface SettleRow {
  outcome: 'not_found' | 'differs' | 'unreleased' | 'released';
  last_settlement: SettlementOutcome | null;
  /** The stored assignment, for 'differs'. */
  assignment: RouteAssignment | null;
}

/**
 * What a client waits before trying again after losing every attempt at a
 * replica to concurrent resolves ([route-contention]): about the time a few
 * of them take to commit.
 */
export const CONTENTION_RETRY_AFTER_MS = 50;

/** The registry error for a call's refusal (fleetproof_refuse): 'capacity:<kind>', 'replica:<instance>', 'admission:<policy>', 'fence'. */
function refused(reason: string): RegistryError {
  const [kind, subject] = [reason.slice(0, reason.indexOf(':')), reason.slice(reason.indexOf(':') + 1)];
  if (kind === 'capacity') return capacityExceeded(subject as ScopeKind);
  if (kind === 'replica') return replicaUnavailable(subject);
  if (kind === 'admission') return admissionRejected(`admission policy ${subject} is disabled`);
  if (reason === 'fence') return fenceLost('an admission counter of this reservation is already released');
  return storageUnavailable(`a routing call refused: ${reason}`);
}

async function call<R extends pg.QueryResultRow>(ctx: RoutingContext, statement: string, args: unknown[]): Promise<R> {
  const [row] = await read<R>(ctx.data, sql(statement), args, refused);
  return row!;
}

export async function resolve(ctx: RoutingContext, tenantId: string, req: ResolveRequest): Promise<RouteView> {
  assertShape<string>('TenantId', tenantId);
  assertShape<ResolveRequest>('ResolveRequest', req);
  const key = turnKey(tenantId, req);
  // The clock is read once the turn has come: a lease is judged at the call.
  const row = await ctx.turns.take(key, async () => {
    const args = resolveArgs({
      tenantId,
      req,
      set: ctx.eligible.get(tenantId, req.capability_id),
      nowMs: ctx.clock(),
      fenceToken: ctx.fenceTokens(),
      choices: ctx.choices,
    });
    let answer: ResolveRow;
    try {
      answer = await call<ResolveRow>(ctx, 'resolve', args);
    } catch (err) {
      ctx.turns.learn(key, false); // a refusal or a failure says nothing of a lone replica: the line opens
      throw err;
    }
    // Kept before the turn passes on, so that the next resolve sends these bindings.
    if (answer.publication !== null) ctx.eligible.put(tenantId, req.capability_id, answer.publication, answer.keys!, answer.tier_ends!);
    // A new route's replica stood alone or not; no replica for it opens the line; a stored route says nothing.
    if (answer.outcome !== 'route' && answer.outcome !== 'conflict') ctx.turns.learn(key, answer.alone === true);
    return answer;
  });
  switch (row.outcome) {
    case 'route':
    case 'created':
      return { assignment: row.assignment!, reserved: row.reserved, last_settlement: row.last_settlement };
    case 'conflict':
      throw conflict(`action ${req.action_id} is already routed with a different tenant or capability`);
    case 'binding_unavailable':
      throw bindingUnavailable(tenantId, req.capability_id);
    case 'replica_unavailable':
      throw replicaUnavailable(row.detail!);
    case 'contended':
      throw replicaUnavailable(row.detail!, CONTENTION_RETRY_AFTER_MS);
  }
}

export async function route(ctx: RoutingContext, tenantId: string, actionId: string): Promise<RouteView | null> {
  assertShape<string>('TenantId', tenantId);
  assertShape<string>('ActionId', actionId);
  const [row] = await read<RouteRow>(ctx.data, sql('read-route'), [actionId]);
  return row && row.tenant_id === tenantId
    ? { assignment: row.assignment, reserved: row.reserved, last_settlement: row.last_settlement }
    : null;
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
  assertShape('SettlementOutcome', outcome);
  const presented = typeof assignment === 'object' && assignment !== null ? JSON.stringify(assignment) : null;
  const args = (compare: boolean) => [actionId, tenantId, presented, outcome, ctx.clock(), ctx.choices.keepOpenUntilOnCompleted, compare];
  let row = await call<SettleRow>(ctx, 'settle', args(true));
  // The same text is the same assignment, valid by construction. Otherwise
  // the domain decides: INVALID_REQUEST for a malformed one, then NOT_FOUND
  // or FENCE_LOST; an equal assignment spelled differently settles without
  // the text comparison.
  if (row.outcome === 'not_found') settlePath(undefined, tenantId, actionId, assignment);
  if (row.outcome === 'differs') {
    settlePath({ assignment: row.assignment!, reserved: true }, tenantId, actionId, assignment);
    row = await call<SettleRow>(ctx, 'settle', args(false));
  }
  switch (row.outcome) {
    case 'not_found':
      throw notFound(`route ${actionId}`);
    case 'unreleased':
      return unreleased(actionId, row.last_settlement);
    case 'released':
      return released(actionId, outcome);
    case 'differs':
      throw storageUnavailable('the settlement compared an assignment it was told not to');
  }
}
