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
import { jsonBody } from '../../contract/transport/http-transport.ts';
import type { Journal } from './journal.ts';
import { planTransport } from './plan-transport.ts';
import { tenantId, type RunPlan } from './run-plan.ts';

const CONCURRENCY = 8;
/** Pauses before each resend of a read or settlement that got no answer: about 13 s in all, past an overload's wait. */
const RESEND_PAUSES_MS = [100, 300, 1000, 3000, 9000];

/** What settling the abandoned actions did; `unsettled` names those whose read or settlement never got an answer. */
export interface Abandoned {
  settled: number;
  unsettled: string[];
}

export async function settleAbandoned(plan: RunPlan, journal: Journal): Promise<Abandoned> {
  const tenantNumber = new Map(plan.tokens.tenants.map((_, k) => [tenantId(plan.run_id, k + 1), k + 1]));
  const actions = new Map(journal.indeterminate.map((f) => [f.action_id, f.tenant]));
  for (const r of journal.routes.values()) if (!journal.settled.has(r.action_id) && tenantNumber.has(r.tenant_id)) actions.set(r.action_id, tenantNumber.get(r.tenant_id)!);
  // A resolve refused outright changed nothing, by the contract: reading it back would only hide, from the audit, a registry that reserved anyway.
  for (const a of journal.attempts) if (!journal.routes.has(a.action_id) && !journal.refused.has(a.action_id)) actions.set(a.action_id, a.tenant);
  const transport = planTransport(plan, CONCURRENCY);
  let settled = 0;
  const unsettled: string[] = [];
  /** 'settled'; 'left' to the audit (nothing held, or a refusal it judges); 'open' when an answer was missing (none, or a 5xx). */
  const once = async (actionId: string, tenant: number): Promise<'settled' | 'left' | 'open'> => {
    const as = { roles: ['registry:dispatch'], tenant: tenantId(plan.run_id, tenant) };
    const params = { action_id: actionId };
    try {
      const read = await transport.operation('getRoute', { as, params });
      if (read.status >= 500) return 'open';
      const view = read.status === 200 ? (jsonBody(read) as RouteView | undefined) : null;
      if (!view || !view.reserved) return 'left';
      const res = await transport.operation('settleRoute', { as, params, body: { assignment: view.assignment, outcome: 'outcome_unknown' } });
      return res.status === 200 ? 'settled' : res.status >= 500 ? 'open' : 'left';
    } catch {
      return 'open';
    }
  };
  const one = async (actionId: string, tenant: number) => {
    if (!plan.tokens.tenants[tenant - 1]) return;
    for (let attempt = 0; ; attempt++) {
      const outcome = await once(actionId, tenant);
      if (outcome === 'settled') settled++;
      if (outcome !== 'open') return;
      if (attempt >= RESEND_PAUSES_MS.length) return void unsettled.push(actionId);
      await new Promise((resolve) => setTimeout(resolve, RESEND_PAUSES_MS[attempt]));
    }
  };
  try {
    const queue = [...actions];
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await one(next[0], next[1]);
    }));
  } finally {
    await transport.close();
  }
  return { settled, unsettled };
}
