// Before the audit judges: the resolves and settlements that stayed
// indeterminate after the flows' retries may have left reservations that no
// one will release ([failure-indeterminate]). As a dispatcher would, the
// runner reads each such action's route and settles it when it is reserved,
// so the audit never blames the registry for reservations the harness
// abandoned. A read or settlement that still fails is left for the audit,
// which then cannot read a baseline either and reports an error.
import { Agent, request } from 'undici';
import type { Journal } from './journal.ts';
import type { RunPlan } from './run-plan.ts';

const CONCURRENCY = 8;

export async function settleIndeterminate(plan: RunPlan, journal: Journal): Promise<{ settled: number; unknown: number }> {
  const actions = new Map(journal.indeterminate.map((f) => [f.action_id, f.tenant]));
  const agent = new Agent({ connections: CONCURRENCY });
  const base = plan.target.replace(/\/+$/, '');
  let settled = 0;
  let unknown = 0;
  const one = async (actionId: string, tenant: number) => {
    const token = plan.tokens.tenants[tenant - 1];
    if (!token) return;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const path = `/v1/routes/${encodeURIComponent(actionId)}`;
    try {
      const read = await request(base + path, { headers, dispatcher: agent });
      const view = read.statusCode === 200 ? ((await read.body.json()) as { assignment: unknown; reserved: boolean }) : (await read.body.dump(), null);
      if (read.statusCode === 404 || (view && !view.reserved)) return;
      if (!view) {
        unknown++;
        return;
      }
      const res = await request(`${base}${path}/settlement`, { method: 'POST', headers, body: JSON.stringify({ assignment: view.assignment, outcome: 'outcome_unknown' }), dispatcher: agent });
      await res.body.dump();
      if (res.statusCode === 200) settled++;
      else unknown++;
    } catch {
      unknown++;
    }
  };
  try {
    const queue = [...actions];
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await one(next[0], next[1]);
    }));
  } finally {
    await agent.close();
  }
  return { settled, unknown };
}
