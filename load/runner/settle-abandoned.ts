// Before the audit judges: actions the flows left without an answered
// settlement may still hold reservations no one will release — resolves and
// settlements that stayed indeterminate after the flows' retries
// ([failure-indeterminate]), iterations cut between resolve and settle
// at a phase's end, and those a phase cut at its budget or an aborted test
// cut during their resolve (the flows journal every action before sending
// its resolve). As a dispatcher would, the runner reads each such
// action's route and settles it when it is reserved, so the audit never
// blames the registry for reservations the harness abandoned. Routes whose
// settlement was answered are left alone: the audit checks those. A read or
// settlement without an answer (none, or a 5xx: overload, storage) is sent
// again a growing pause apart, as the contract makes safe; one still without
// an answer is returned as unsettled, and the audit then judges no baseline
// that route could hold up.
import type { RouteView } from '../../contract/records.ts';
import { jsonBody } from '../../client/http-transport.ts';
import type { Journal, ReplicaObservation } from './journal.ts';
import { mapLimited } from './map-limited.ts';
import { planTransport } from './plan-transport.ts';
import { tenantId, type RunPlan } from './run-plan.ts';

const CONCURRENCY = 8;
/** Pauses before each resend of a read or settlement that got no answer: about 13 s in all, past an overload's wait. */
const RESEND_PAUSES_MS = [100, 300, 1000, 3000, 9000];

/** What settling the abandoned actions did; `unsettled` names those whose read or settlement never got an answer. */
export interface Abandoned {
  settled: number;
  unsettled: string[];
  /**
   * Each replica holding abandoned routes that were all reserved at one
   * instant, read before any was settled: the registry held at least that
   * many assignments there. A phase cut before it read its replicas (under
   * faults, a cut judges nothing) would otherwise leave an overbooking of its
   * routes unseen.
   */
  observations: ReplicaObservation[];
}

type Read = { outcome: 'left' | 'open' } | { outcome: 'reserved'; view: RouteView };

export async function settleAbandoned(plan: RunPlan, journal: Journal): Promise<Abandoned> {
  const tenantNumber = new Map(plan.tokens.tenants.map((_, k) => [tenantId(plan.run_id, k + 1), k + 1]));
  const actions = new Map(journal.indeterminate.map((f) => [f.action_id, f.tenant]));
  for (const r of journal.routes.values())
    if (!journal.settled.has(r.action_id) && tenantNumber.has(r.tenant_id)) actions.set(r.action_id, tenantNumber.get(r.tenant_id)!);
  // A resolve refused outright changed nothing, by the contract: reading it back would only hide, from the audit, a registry that reserved anyway.
  for (const a of journal.attempts)
    if (!journal.routes.has(a.action_id) && !journal.refused.has(a.action_id)) actions.set(a.action_id, a.tenant);
  const transport = planTransport(plan, CONCURRENCY);
  const dispatcher = (tenant: number) => ({ roles: ['registry:dispatch'], tenant: tenantId(plan.run_id, tenant) });
  /** A read or settlement without an answer (none, or a 5xx) is 'open': sent again, a growing pause apart. */
  const resent = async <T extends { outcome: string }>(attempt: () => Promise<T>): Promise<T> => {
    for (let n = 0; ; n++) {
      const r = await attempt();
      if (r.outcome !== 'open' || n >= RESEND_PAUSES_MS.length) return r;
      await new Promise((resolve) => setTimeout(resolve, RESEND_PAUSES_MS[n]));
    }
  };
  const read = (actionId: string, tenant: number): Promise<Read> =>
    resent(async () => {
      try {
        const res = await transport.operation('getRoute', { as: dispatcher(tenant), params: { action_id: actionId } });
        if (res.status >= 500) return { outcome: 'open' as const };
        const view = res.status === 200 ? (jsonBody(res) as RouteView | undefined) : null;
        return view && view.reserved ? { outcome: 'reserved' as const, view } : { outcome: 'left' as const };
      } catch {
        return { outcome: 'open' as const };
      }
    });
  const settle = (actionId: string, tenant: number, view: RouteView) =>
    resent(async () => {
      try {
        const res = await transport.operation('settleRoute', {
          as: dispatcher(tenant),
          params: { action_id: actionId },
          body: { assignment: view.assignment, outcome: 'outcome_unknown' },
        });
        return { outcome: res.status === 200 ? 'settled' : res.status >= 500 ? 'open' : 'left' };
      } catch {
        return { outcome: 'open' };
      }
    });
  try {
    const known = [...actions].filter(([, tenant]) => plan.tokens.tenants[tenant - 1]);
    const unsettled: string[] = [];
    /** The actions whose reads said reserved, with what the reads said. */
    const readAll = async (which: Array<readonly [string, number]>) => {
      const reads = await mapLimited(which, CONCURRENCY, ([actionId, tenant]) => read(actionId, tenant));
      which.forEach(([actionId], i) => reads[i]!.outcome === 'open' && unsettled.push(actionId));
      return which.flatMap(([actionId, tenant], i) => {
        const r = reads[i]!;
        return r.outcome === 'reserved' ? [{ actionId, tenant, view: r.view }] : [];
      });
    };
    // Read twice, and count only routes reserved both times. Writes the load left queued at the registry may land
    // during the reads: in one pass, a settlement landing after one route was read and a resolve then taking its
    // place could both be counted, and a correct registry blamed. To be counted in both passes as well, each such
    // pair would need more queued writes landing in step with the reads, a retry reacquiring only where there is
    // capacity ([pinned-reacquire]).
    const first = await readAll(known);
    const reserved = await readAll(first.map((r) => [r.actionId, r.tenant] as const));
    const observations = await heldAtOnce(
      transport,
      reserved.map((r) => r.view.assignment.replica_id),
    );
    const settles = await mapLimited(reserved, CONCURRENCY, (r) => settle(r.actionId, r.tenant, r.view));
    reserved.forEach((r, i) => settles[i]!.outcome === 'open' && unsettled.push(r.actionId));
    return { settled: settles.filter((s) => s.outcome === 'settled').length, unsettled, observations };
  } finally {
    await transport.close();
  }
}

/** The replicas the reserved routes name, each with how many of them it holds and its capacity as it reads now. */
async function heldAtOnce(transport: ReturnType<typeof planTransport>, replicaIds: string[]): Promise<ReplicaObservation[]> {
  const held = new Map<string, number>();
  for (const id of replicaIds) held.set(id, (held.get(id) ?? 0) + 1);
  const observed = await mapLimited([...held], CONCURRENCY, async ([id, count]) => {
    try {
      const res = await transport.operation('getReplica', { as: { roles: ['registry:reader'] }, params: { replica_id: id } });
      const replica = res.status === 200 ? (jsonBody(res) as { capacity?: unknown } | undefined) : undefined;
      return typeof replica?.capacity === 'number'
        ? [{ t: Date.now(), phase: 'abandoned routes, before the runner settled them', id, active: count, capacity: replica.capacity }]
        : [];
    } catch {
      // Unread, it judges nothing; the audit reads every replica again.
      return [];
    }
  });
  return observed.flat();
}
