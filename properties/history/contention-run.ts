// Runs a contention scenario on one run of a target and checks it twice: the
// recorded history with the overbooking checker, and the registry's own
// numbers after quiescence — first that replicas and counters hold exactly
// the reservations the routes say they hold, then, once everything is
// settled, that they are back to their baseline.
import type { ScopeKind } from '../../contract/errors.ts';
import type { RouteView, ScopeReservation } from '../../contract/records.ts';
import { RegistryError } from '../../contract/registry-error.ts';
import { expectProperty, IndeterminateOutcome, NotForwarded } from '../check/violations.ts';
import type { RegistryModel } from '../model/registry-model.ts';
import type { StillActing } from './still-acting.ts';
import type { TargetStore } from '../targets/target.ts';
import { NOT_FORWARDED } from '../targets/http/call-outcomes.ts';
import { shrunkCapacity, shrunkInstance, type ContentionScenario } from './contention-scenario.ts';
import { describeOp, type Instant, type Op } from '../check/history.ts';
import { certainHolds, findOverbooking, type CapacityTimeline } from './overbooking-checker.ts';
import { describeLostSettlement, lostSettlements } from './settlement-checker.ts';
import { changedAssignments, describeChangedAssignment } from './assignment-checker.ts';

/** How a client reaches the store: directly, or through fast-check's scheduler. */
export type StoreAccess = Pick<TargetStore, 'resolve' | 'settle' | 'reportHealth'>;

/** A registry's refusal or a request the proxy never forwarded is a fail, a timeout an info; anything else ends the burst. */
function errorText(err: unknown): { type: 'fail' | 'info'; error: string } {
  if (IndeterminateOutcome.is(err)) return { type: 'info', error: err.message };
  if (RegistryError.is(err)) return { type: 'fail', error: err.code };
  if (NotForwarded.is(err)) return { type: 'fail', error: NOT_FORWARDED };
  throw err;
}

interface Burst {
  m: RegistryModel;
  access: StoreAccess;
  s: ContentionScenario;
  now: Instant;
  history: Op[];
  /** Health revisions for the burst's reports, each larger than any before the burst. */
  nextRevision: () => number;
  acting: StillActing;
}

/** Reports a lower capacity for a replica, racing the clients that route to it. */
async function shrink(b: Burst, client: number, replica: string): Promise<Op> {
  const op: Op = { client, kind: 'health', tenant: '', action: replica, invoke: b.now(), complete: 0, type: 'ok' };
  b.history.push(op);
  const health = { ...b.m.s.replicas[replica]!.health, health_revision: b.nextRevision(), capacity: shrunkCapacity(b.s) };
  try {
    await b.access.reportHealth(replica, health);
  } catch (err) {
    b.acting.note(err);
    Object.assign(op, errorText(err));
  }
  op.complete = b.now();
  return op;
}

async function runClient(b: Burst, client: number, steps: ContentionScenario['clients'][number]): Promise<void> {
  const { m, access, now, history } = b;
  let latest: { tenant: string; action: string; capability: string; view?: RouteView } | undefined;
  let count = 0;
  for (const step of steps) {
    if (step.kind === 'shrink') {
      if ((await shrink(b, client, m.u.replica(shrunkInstance(m.u.layout, step), step.slot))).type === 'info') return;
      continue;
    }
    if (step.kind === 'resolve')
      latest = { tenant: m.u.tenant(step.tenant), action: `${m.u.ns}c${client}.${++count}`, capability: m.u.capability(step.capability) };
    if (!latest || (step.kind === 'settle' && !latest.view)) continue;
    const { tenant, action } = latest;
    const op: Op = { client, kind: step.kind, tenant, action, invoke: now(), complete: 0, type: 'ok' };
    history.push(op);
    try {
      if (step.kind === 'settle') op.released = (await access.settle(tenant, action, latest.view!.assignment, step.outcome)).released;
      else latest.view = op.view = await access.resolve(tenant, { action_id: action, capability_id: latest.capability });
    } catch (err) {
      b.acting.note(err);
      Object.assign(op, errorText(err));
    }
    op.complete = now();
    // After an indeterminate operation a client issues nothing more ([Jepsen :info]).
    if (op.type === 'info') return;
  }
}

/** `acting` learns which of the burst's requests may still take effect after it. */
export async function runClients(
  m: RegistryModel,
  access: StoreAccess,
  s: ContentionScenario,
  now: Instant,
  acting: StillActing,
): Promise<Op[]> {
  const history: Op[] = [];
  let revision = Math.max(...Object.values(m.s.replicas).map((r) => r.health.health_revision));
  const burst: Burst = { m, access, s, now, history, nextRevision: () => ++revision, acting };
  await Promise.all(s.clients.map((steps, i) => runClient(burst, i + 1, steps)));
  return history;
}

/**
 * A replica's capacity over the burst: the scenario's, until a report that
 * lowered it surely took effect (its completion); every report sets the
 * same lower value, and none raises it.
 */
function capacityTimeline(history: readonly Op[], s: ContentionScenario): CapacityTimeline {
  const lowered = (replica: string) =>
    history.filter((op) => op.kind === 'health' && op.action === replica && op.type === 'ok').map((op) => op.complete);
  return {
    at: (replica, t) => (lowered(replica).some((c) => c <= t) ? shrunkCapacity(s) : s.capacity),
    changes: lowered,
  };
}

export function checkHistory(history: Op[], quiescence: number, s: ContentionScenario): void {
  const found = findOverbooking(certainHolds(history, quiescence), capacityTimeline(history, s));
  expectProperty('no-overbooking', found === null, () => {
    const f = found!;
    const ops = history.filter((op) => f.holds.some((h) => h.action === op.action || (op.kind === 'health' && h.replica === op.action)));
    return `${f.holds.length} reservations certainly overlapped on ${f.key} (limit ${f.limit}):\n    ${ops.map(describeOp).join('\n    ')}`;
  });
}

function scopesOf(view: RouteView, retry: boolean): ScopeReservation[] {
  const a = view.assignment.admission;
  return retry && a.retry_scope ? [...a.base_scopes, a.retry_scope] : [...a.base_scopes];
}

/**
 * Whether the reservation a route holds now came from a retry (which also
 * takes the tenant retry scope) rather than the action's first route: the
 * last attempt made while nothing was held, including one whose answer
 * never came, after an earlier attempt that may have routed the action.
 */
export function reservedByRetry(history: readonly Op[], action: string): boolean {
  let held = false;
  let routed = false;
  let retry = false;
  for (const op of history.filter((o) => o.action === action).sort((a, b) => a.invoke - b.invoke)) {
    if (op.kind === 'settle') {
      if (op.type === 'ok' && op.released) held = false;
    } else if (!held && op.type !== 'fail') {
      retry = routed;
      routed = true;
      held = op.type === 'ok';
    }
  }
  return retry;
}

/** Reads every route the burst touched and every replica and counter they name. */
export async function auditQuiescence(
  m: RegistryModel,
  store: TargetStore,
  history: Op[],
  baseline: Record<string, number>,
  phase: string,
): Promise<RouteView[]> {
  const actions = [...new Map(history.filter((op) => op.kind !== 'health').map((op) => [op.action, op])).values()];
  const views = (await Promise.all(actions.map((op) => store.route(op.tenant, op.action)))).filter((v): v is RouteView => v !== null);
  const changed = changedAssignments(history, views);
  expectProperty('pinned-routes', changed.length === 0, () => `${phase}: ${describeChangedAssignment(changed[0]!, history)}`);
  const lost = lostSettlements(history, views);
  expectProperty('idempotent-settlement', lost.length === 0, () => `${phase}: ${describeLostSettlement(lost[0]!, history)}`);
  const expectedReplicas = new Map<string, number>(Object.keys(m.s.replicas).map((id) => [id, 0]));
  const expectedCounters = new Map<string, number>(Object.entries(baseline));
  for (const v of views) {
    for (const s of scopesOf(v, true)) if (!expectedCounters.has(`${s.kind}/${s.key}`)) expectedCounters.set(`${s.kind}/${s.key}`, 0);
    if (!v.reserved) continue;
    expectedReplicas.set(v.assignment.replica_id, (expectedReplicas.get(v.assignment.replica_id) ?? 0) + 1);
    for (const s of scopesOf(v, reservedByRetry(history, v.assignment.action_id)))
      expectedCounters.set(`${s.kind}/${s.key}`, expectedCounters.get(`${s.kind}/${s.key}`)! + 1);
  }
  const replicaIds = [...expectedReplicas.keys()];
  const counterKeys = [...expectedCounters.keys()];
  const [replicas, counters] = await Promise.all([
    Promise.all(replicaIds.map((id) => store.getReplica(id))),
    Promise.all(counterKeys.map((k) => store.getAdmissionCounter(k.slice(0, k.indexOf('/')) as ScopeKind, k.slice(k.indexOf('/') + 1)))),
  ]);
  replicaIds.forEach((id, i) => {
    const seen = replicas[i]?.active_assignments;
    expectProperty(
      'no-overbooking',
      seen === expectedReplicas.get(id),
      () => `${phase}: replica ${m.u.describe(id)} holds ${seen} assignments; its routes hold ${expectedReplicas.get(id)}`,
    );
    const capacity = replicas[i]!.capacity;
    expectProperty(
      'no-overbooking',
      seen! <= capacity,
      () => `${phase}: replica ${m.u.describe(id)} holds ${seen} assignments with capacity ${capacity}`,
    );
  });
  counterKeys.forEach((k, i) => {
    const seen = counters[i]!.active;
    expectProperty(
      'no-overbooking',
      seen === expectedCounters.get(k),
      () => `${phase}: counter ${k} is ${seen}; the reservations the routes hold make it ${expectedCounters.get(k)}`,
    );
  });
  return views;
}
