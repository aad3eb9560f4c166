// Bursts of parallel resolves under [route-contention]: a resolve that cannot
// lock a replica within a bounded number of attempts may answer
// REPLICA_UNAVAILABLE even while capacity is left, so a burst proves only the
// hard upper bounds (never above a limit or a capacity; counters and replica
// units equal to the routes created). That a limit is exactly N is proved
// afterwards, one request at a time: sequential resolves fill up to N, and
// the next one must be refused for the right reason. A registry that refuses
// too early therefore still fails.
import type { ScopeKind } from '../../contract/errors.ts';
import type { ResolveRequest, RouteView } from '../../contract/records.ts';
import type { RegistryClient, Reply } from './client.ts';
import type { CaseContext } from './context.ts';
import { expectAtMost, expectError, expectOk, fail } from './expect.ts';
import { errorCodeOf, resolveWithRetries } from './retried-resolve.ts';

// Cases send their lone resolves through the same retries as setup does.
export { resolveWithRetries };

/** A resolve that must succeed, for setup fired in parallel: contention is retried a bounded number of times. */
export async function resolveForSetup(ctx: CaseContext, tenant: string, capabilityId: string, actionId: string): Promise<RouteView> {
  return expectOk(
    await resolveWithRetries(ctx, ctx.dispatch(tenant), { action_id: actionId, capability_id: capabilityId }),
    'setup: resolveRoute',
  );
}

/**
 * How a resolve in a burst may be refused: CAPACITY_EXCEEDED naming `scope`
 * (when the burst presses on an admission limit), or REPLICA_UNAVAILABLE
 * naming the instance, which a full replica and contention both give.
 */
export function expectBurstRefusal(reply: Reply<'resolveRoute'>, refusal: { scope?: ScopeKind; instanceId: string }, what: string): void {
  const code = errorCodeOf(reply);
  if (code === 'REPLICA_UNAVAILABLE') {
    expectError(reply, 'REPLICA_UNAVAILABLE', { instance_id: refusal.instanceId }, what);
  } else if (refusal.scope !== undefined && code === 'CAPACITY_EXCEEDED') {
    expectError(reply, 'CAPACITY_EXCEEDED', { scope: refusal.scope }, what);
  } else {
    const expected =
      refusal.scope !== undefined ? `CAPACITY_EXCEEDED (scope ${refusal.scope}) or REPLICA_UNAVAILABLE` : 'REPLICA_UNAVAILABLE';
    fail(`${what}: expected ${expected}, got ${reply.status}${code ? ` ${code}` : ''}`, { exchange: reply.exchange });
  }
}

/**
 * Resolves one at a time until `count` more have succeeded. They are below
 * the limit under test, so each must succeed; a refusal, after the bounded
 * retries of contention, fails the case.
 */
export async function fillSequentially(
  ctx: CaseContext,
  dispatch: RegistryClient,
  count: number,
  next: () => ResolveRequest,
  what: string,
): Promise<RouteView[]> {
  const views: RouteView[] = [];
  for (let i = 1; i <= count; i++)
    views.push(expectOk(await resolveWithRetries(ctx, dispatch, next()), `${what} (${i} of ${count}, one at a time)`));
  return views;
}

/**
 * Replica units the replicas hold in all, read through the API; each
 * replica is checked never to hold more than its capacity.
 */
export async function heldUnits(ctx: CaseContext, replicaIds: string[]): Promise<number> {
  const states = await Promise.all(replicaIds.map((id) => ctx.fx.replicaState(id)));
  for (const s of states) expectAtMost(s.active_assignments, s.capacity, `active assignments of ${s.id}`);
  return states.reduce((n, s) => n + s.active_assignments, 0);
}
