// What a settlement does (spec.md §13–§14), decided from the route a store
// read under the action's lock. Both stores lock, read and write around it.
import type { RouteAssignment, SettlementOutcome, SettlementResult } from '../../contract/records.ts';
import { fenceLost, notFound } from '../../contract/registry-error.ts';
import { assertShape, jsonEqual } from './validation.ts';

/** The action's stored route, as far as settlement needs it. */
interface StoredSettlementFacts {
  readonly assignment: RouteAssignment;
  readonly reserved: boolean;
}

/**
 * release: give back the reservation's units and count the outcome;
 * unreleased: answer released:false with the stored last settlement
 * ([settle-idempotent]).
 */
type SettlePath = 'release' | 'unreleased';

/**
 * [settle-fence], [settle-release-once]: the path of a settlement, or
 * NOT_FOUND (no route of this tenant) or FENCE_LOST (the presented assignment
 * differs from the stored one).
 */
export function settlePath(
  stored: StoredSettlementFacts | undefined,
  tenantId: string,
  actionId: string,
  presented: RouteAssignment,
): SettlePath {
  const owned = stored !== undefined && stored.assignment.tenant_id === tenantId;
  // A presented assignment equal to the stored one is valid by construction,
  // so the full shape check is only needed to tell bad input from a lost fence.
  if (!owned || !jsonEqual(stored.assignment, presented)) {
    assertShape('RouteAssignment', presented);
    if (!owned) throw notFound(`route ${actionId}`);
    throw fenceLost('the presented assignment differs from the stored one');
  }
  return stored.reserved ? 'release' : 'unreleased';
}

/** The answer of a settlement that released nothing. */
export function unreleased(actionId: string, lastSettlement: SettlementOutcome | null): SettlementResult {
  return { action_id: actionId, released: false, last_settlement: lastSettlement };
}

/** The answer of a settlement that released the reservation. */
export function released(actionId: string, outcome: SettlementOutcome): SettlementResult {
  return { action_id: actionId, released: true, last_settlement: outcome };
}
