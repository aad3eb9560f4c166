// The registry's own numbers after a shared-action burst, once every call
// has answered: each replica holds exactly the reserved routes pinned to it,
// and each base-scope counter exactly the reserved routes that name it. The
// tenant retry counter is known only within bounds: a reserved route came
// from a retry surely when a settlement surely released it before, and
// possibly when anything else may have released it (a lost answer, lease
// maintenance). Once everything is settled, the bounds close on the baseline.
import type { ScopeKind } from '../../contract/errors.ts';
import type { RouteView } from '../../contract/records.ts';
import { expectProperty } from '../check/violations.ts';
import type { RegistryModel } from '../model/registry-model.ts';
import type { TargetStore } from '../targets/target.ts';
import type { Op } from '../check/history.ts';

interface Bounds {
  lo: number;
  hi: number;
}

function releasedBefore(history: readonly Op[], action: string): Bounds {
  const surely = history.some((op) => op.action === action && op.kind === 'settle' && op.type === 'ok' && op.released === true);
  const maybe =
    surely ||
    history.some(
      (op) => (op.action === action && op.kind === 'settle' && op.type === 'info') || (op.kind === 'expire' && op.type !== 'fail'),
    );
  return { lo: surely ? 1 : 0, hi: maybe ? 1 : 0 };
}

export async function auditSharedQuiescence(
  m: RegistryModel,
  store: TargetStore,
  history: readonly Op[],
  actions: string[],
  baseline: Record<string, number>,
  phase: string,
): Promise<RouteView[]> {
  const tenant = m.u.tenant('a');
  const views = (await Promise.all(actions.map((a) => store.route(tenant, a)))).filter((v): v is RouteView => v !== null);
  const replicas = new Map<string, number>(Object.keys(m.s.replicas).map((id) => [id, 0]));
  const counters = new Map<string, Bounds>(Object.entries(baseline).map(([k, n]) => [k, { lo: n, hi: n }]));
  const add = (key: string, b: Bounds) => {
    const c = counters.get(key) ?? { lo: baseline[key] ?? 0, hi: baseline[key] ?? 0 };
    counters.set(key, { lo: c.lo + b.lo, hi: c.hi + b.hi });
  };
  for (const v of views) {
    const { base_scopes: base, retry_scope: retry } = v.assignment.admission;
    const held = v.reserved ? 1 : 0;
    for (const s of base) add(`${s.kind}/${s.key}`, { lo: held, hi: held });
    const retried = releasedBefore(history, v.assignment.action_id);
    if (retry) add(`${retry.kind}/${retry.key}`, { lo: held * retried.lo, hi: held * retried.hi });
    if (v.reserved) replicas.set(v.assignment.replica_id, (replicas.get(v.assignment.replica_id) ?? 0) + 1);
  }
  const ids = [...replicas.keys()];
  const keys = [...counters.keys()];
  const [states, read] = await Promise.all([
    Promise.all(ids.map((id) => store.getReplica(id))),
    Promise.all(keys.map((k) => store.getAdmissionCounter(k.slice(0, k.indexOf('/')) as ScopeKind, k.slice(k.indexOf('/') + 1)))),
  ]);
  ids.forEach((id, i) => {
    const seen = states[i]?.active_assignments;
    expectProperty(
      'no-overbooking',
      seen === replicas.get(id),
      () => `${phase}: replica ${m.u.describe(id)} holds ${seen} assignments; its reserved routes are ${replicas.get(id)}`,
    );
  });
  keys.forEach((k, i) => {
    const seen = read[i]!.active;
    const { lo, hi } = counters.get(k)!;
    expectProperty(
      'no-overbooking',
      seen >= lo && seen <= hi,
      () => `${phase}: counter ${k} is ${seen}; the reservations the routes hold make it ${lo === hi ? lo : `${lo} to ${hi}`}`,
    );
  });
  return views;
}
