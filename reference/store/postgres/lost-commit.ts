// When the connection dies around a COMMIT, its acknowledgement may be lost
// while the commit itself was applied: the store cannot know from the error
// alone ([failure-indeterminate]). Before answering STORAGE_UNAVAILABLE it
// reads the action back on a fresh connection and answers with what is
// there when that settles the question; otherwise the answer stays
// indeterminate. One look-up and at most one retry, so a storage outage
// still answers promptly. An overload answer ([failure-overload]) is not
// such a failure: it was given before any statement was sent, and a look-up
// and a retry would only add to the load it reports.
import type { ResolveRequest, RouteAssignment, RouteView, SettlementResult } from '../../../contract/records.ts';
import { RegistryError } from '../../../contract/registry-error.ts';
import { wasNeverSent } from './database.ts';

function storageFailed(err: unknown): boolean {
  return RegistryError.is(err) && err.code === 'STORAGE_UNAVAILABLE' && !wasNeverSent(err);
}

/** The action's route, read afresh; a failure to read leaves the first answer standing. */
type LookUp = () => Promise<RouteView | null>;

/**
 * A resolve whose outcome is unknown: a reserved route of this tenant and
 * capability is what any retry would return, so it is the answer; no route at
 * all means nothing was committed, so the resolve is tried once more.
 */
export async function resolveKnowingLostCommits(
  tenantId: string,
  request: ResolveRequest,
  resolve: () => Promise<RouteView>,
  lookUp: LookUp,
): Promise<RouteView> {
  try {
    return await resolve();
  } catch (err) {
    if (!storageFailed(err)) throw err;
    const found = await lookUp().catch(() => undefined);
    if (found === undefined) throw err;
    if (found === null) return resolve();
    const a = found.assignment;
    if (found.reserved && a.tenant_id === tenantId && a.capability_id === request.capability_id) return found;
    throw err;
  }
}

/**
 * A settlement whose outcome is unknown: a route still holding this
 * assignment's reservation was not settled, so the settlement is tried once
 * more. A released route stays indeterminate: this call or another may have
 * released it, and only the one that did may say `released: true`.
 */
export async function settleKnowingLostCommits(
  assignment: RouteAssignment,
  settle: () => Promise<SettlementResult>,
  lookUp: LookUp,
): Promise<SettlementResult> {
  try {
    return await settle();
  } catch (err) {
    if (!storageFailed(err)) throw err;
    const found = await lookUp().catch(() => undefined);
    if (found && found.reserved && found.assignment.fence_token === assignment.fence_token) return settle();
    throw err;
  }
}
