// The sweep after the faults: once the nemesis has healed and the registry
// is ready again, read back through the API every route the whole history
// touched, judge them, settle what is still held, and judge again. It
// establishes, over every operation of the stage and not per run:
// - each action has at most one assignment and it never changed;
// - no acknowledged settlement was lost;
// - no replica holds more than its capacity, no counter more than the
//   largest limit its reservations pinned, at the points it was read;
// - every replica's and counter's number is what the routes that hold
//   reservations make it — before the sweep settles them and after — so each
//   indeterminate resolve or settlement took effect once or not at all.
// Each violation carries the slice of the history that shows it.
import type { ScopeKind } from '../../contract/errors.ts';
import type { RouteView } from '../../contract/records.ts';
import { changedAssignments, describeChangedAssignment } from '../../properties/history/assignment-checker.ts';
import { reservedByRetry } from '../../properties/history/contention-run.ts';
import { describeOp, type Op } from '../../properties/check/history.ts';
import { describeLostSettlement, lostSettlements } from '../../properties/history/settlement-checker.ts';
import { untilAnswered } from '../../properties/model/until-answered.ts';
import { NOT_FORWARDED } from '../../properties/targets/http/call-outcomes.ts';
import type { TargetStore } from '../../properties/targets/target.ts';
import { mapLimited } from '../../load/runner/map-limited.ts';
import type { SweepResult } from '../../reports/schemas/faults-result.ts';

export const GLOBAL_COUNTER = 'global/fleet';

/** The one counter every run shares, read before a history begins: the sweep's baseline. */
export async function globalBaseline(store: TargetStore): Promise<number> {
  return (await store.getAdmissionCounter('global', 'fleet')).active;
}
/**
 * How long to leave the registry alone before the sweep reads it: the
 * recovery window, and at least until no indeterminate operation may still
 * take effect (as long again as its client waited, as the suites wait before
 * their own read-backs). Read sooner, a correct registry that applies a
 * queued write late would show it landing between the sweep's reads.
 */
export function quietBeforeSweepMs(history: readonly Op[], now: number, recoveryMs: number): number {
  let until = 0;
  for (const op of history) if (op.actingUntil !== undefined && op.actingUntil > until) until = op.actingUntil;
  return Math.max(recoveryMs, until - now);
}

/** One defect breaks many counters at once: the first few say it. */
const VIOLATIONS_KEPT = 20;
/** The sweep settles what is held as a dispatcher would: sending a settlement again until it is answered. */
const SETTLE_RESEND_MS = 60_000;

const slice = (history: readonly Op[], test: (op: Op) => boolean) =>
  history
    .filter(test)
    .sort((a, b) => a.invoke - b.invoke)
    .map(describeOp)
    .join('\n    ');

/** The sweep's reads and settlements go to the registry this many at a time. */
const AT_ONCE = 8;
const pooled = <T, R>(items: readonly T[], each: (item: T) => Promise<R>) => mapLimited(items, AT_ONCE, each);

/** Replicas and counters as the held routes make them, and the largest limit each counter's holders pinned. */
function expectedHolds(history: readonly Op[], views: readonly RouteView[], baseline: number) {
  const replicas = new Map<string, number>();
  const counters = new Map<string, { count: number; limit: number }>([[GLOBAL_COUNTER, { count: baseline, limit: 0 }]]);
  for (const v of views) {
    const a = v.assignment.admission;
    replicas.set(v.assignment.replica_id, (replicas.get(v.assignment.replica_id) ?? 0) + (v.reserved ? 1 : 0));
    const held = v.reserved
      ? reservedByRetry(history, v.assignment.action_id) && a.retry_scope
        ? [...a.base_scopes, a.retry_scope]
        : a.base_scopes
      : [];
    for (const s of [...a.base_scopes, ...(a.retry_scope ? [a.retry_scope] : [])]) {
      const key = `${s.kind}/${s.key}`;
      const c = counters.get(key) ?? { count: key === GLOBAL_COUNTER ? baseline : 0, limit: 0 };
      if (held.includes(s)) Object.assign(c, { count: c.count + 1, limit: Math.max(c.limit, s.limit) });
      counters.set(key, c);
    }
  }
  return { replicas, counters };
}

/** Reads the replicas and counters the routes name and compares them with what the routes hold. */
async function reconcile(
  store: TargetStore,
  history: readonly Op[],
  views: readonly RouteView[],
  baseline: number,
  phase: string,
): Promise<string[]> {
  const { replicas, counters } = expectedHolds(history, views, baseline);
  const violations: string[] = [];
  const onReplica = (id: string) =>
    slice(history, (op) => views.some((v) => v.assignment.replica_id === id && v.assignment.action_id === op.action));
  const seenReplicas = await pooled([...replicas.keys()], (id) => store.getReplica(id));
  [...replicas].forEach(([id, expected], i) => {
    const seen = seenReplicas[i];
    if (!seen) return violations.push(`${phase}: replica ${id}, named by routes, is missing`);
    if (seen.active_assignments > seen.capacity)
      violations.push(
        `${phase}: replica ${id} holds ${seen.active_assignments} assignments with capacity ${seen.capacity}:\n    ${onReplica(id)}`,
      );
    if (seen.active_assignments !== expected)
      violations.push(
        `${phase}: replica ${id} holds ${seen.active_assignments} assignments; the routes that hold reservations make it ${expected}:\n    ${onReplica(id)}`,
      );
  });
  const keys = [...counters.keys()];
  const seenCounters = await pooled(keys, (k) =>
    store.getAdmissionCounter(k.slice(0, k.indexOf('/')) as ScopeKind, k.slice(k.indexOf('/') + 1)),
  );
  keys.forEach((k, i) => {
    const { count, limit } = counters.get(k)!;
    const seen = seenCounters[i]!.active;
    if (limit > 0 && seen > limit && k !== GLOBAL_COUNTER)
      violations.push(`${phase}: counter ${k} is ${seen}, above the largest limit its reservations pinned (${limit})`);
    if (seen !== count) violations.push(`${phase}: counter ${k} is ${seen}; the reservations the routes hold make it ${count}`);
  });
  return violations;
}

/**
 * Sweeps a history recorded against `store`. `baseline` is the global
 * counter before the history began: the one counter other runs share.
 */
export async function sweep(store: TargetStore, recorded: readonly Op[], baseline: number): Promise<SweepResult> {
  // The sweep's own settlements may be recorded into the same history: judge what came before them.
  const history = [...recorded];
  const routed = history.filter((op) => op.kind === 'resolve' || op.kind === 'retry' || op.kind === 'settle');
  const pairs = [...new Map(routed.map((op) => [`${op.tenant}\u001f${op.action}`, op])).values()];
  const read = await pooled(pairs, (op) => store.route(op.tenant, op.action));
  const views = [...new Map(read.filter((v): v is RouteView => v !== null).map((v) => [v.assignment.action_id, v])).values()];
  const violations: string[] = [];
  for (const c of changedAssignments(history, views)) violations.push(describeChangedAssignment(c, history));
  for (const l of lostSettlements(history, views)) violations.push(describeLostSettlement(l, history));
  violations.push(...(await reconcile(store, history, views, baseline, 'read back after the faults')));
  const held = views.filter((v) => v.reserved);
  const resend = { resendUnansweredMs: SETTLE_RESEND_MS };
  await pooled(held, (v) =>
    untilAnswered(resend, () => store.settle(v.assignment.tenant_id, v.assignment.action_id, v.assignment, 'cancelled')),
  );
  const after = await pooled(views, (v) => store.route(v.assignment.tenant_id, v.assignment.action_id));
  violations.push(
    ...(await reconcile(
      store,
      history,
      after.filter((v): v is RouteView => v !== null),
      baseline,
      'after the sweep settled every route',
    )),
  );
  if (violations.length > VIOLATIONS_KEPT)
    violations.splice(VIOLATIONS_KEPT, Infinity, `… and ${violations.length - VIOLATIONS_KEPT} more`);
  const info = routed.filter((op) => op.type === 'info');
  const hasRoute = new Set(views.map((v) => v.assignment.action_id));
  const resolves = info.filter((op) => op.kind !== 'settle');
  return {
    ops: routed.length,
    indeterminate: info.length,
    indeterminate_resolves: {
      took_effect: resolves.filter((op) => hasRoute.has(op.action)).length,
      no_effect: resolves.filter((op) => !hasRoute.has(op.action)).length,
    },
    not_forwarded: routed.filter((op) => op.type === 'fail' && op.error === NOT_FORWARDED).length,
    routes: views.length,
    settled_by_sweep: held.length,
    violations,
  };
}
