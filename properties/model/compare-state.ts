// After every command: read what the registry shows through the port
// (catalog revision, every replica of the run, every counter an assignment
// names, every route) and compare it with the model. Reads on a registry with
// its own clock happen inside a window, and time-dependent values (circuit
// state) are only compared where the window decides them.
import type { AdmissionCounter, ConnectorReplica, RouteView } from '../../contract/records.ts';
import type { ScopeKind } from '../../contract/errors.ts';
import { RegistryError } from '../../contract/registry-error.ts';
import { differences } from './json.ts';
import { counterName, type ModelReplica, type ModelState } from './model-state.ts';
import type { RegistryModel } from './registry-model.ts';
import type { TimeWindow } from '../targets/target.ts';
import type { RunContext } from '../targets/target.ts';
import { diverged, expectProperty, IndeterminateOutcome, skipIndeterminateRun } from '../check/violations.ts';

const listed = (lines: string[]) => lines.map((l) => `  ${l}`).join('\n');

interface CounterRef {
  kind: ScopeKind;
  key: string;
}

/** Counters any assignment of the run names, and any the model holds above zero. */
function countersToRead(s: ModelState): CounterRef[] {
  const refs = new Map<string, CounterRef>();
  const add = (scope: CounterRef) => refs.set(counterName(scope.kind, scope.key), { kind: scope.kind, key: scope.key });
  for (const route of Object.values(s.routes)) {
    route.assignment.admission.base_scopes.forEach(add);
    if (route.assignment.admission.retry_scope) add(route.assignment.admission.retry_scope);
  }
  for (const name of Object.keys(s.counters)) {
    const [kind, ...key] = name.split('/');
    if ((s.counters[name] ?? 0) !== 0) add({ kind: kind as ScopeKind, key: key.join('/') });
  }
  return [...refs.values()];
}

/** The largest limit pinned by a reservation the model says holds this counter. */
function largestHeldLimit(s: ModelState, kind: string, key: string): number {
  let limit = 0;
  for (const route of Object.values(s.routes)) {
    if (!route.reserved) continue;
    for (const scope of route.held) if (scope.kind === kind && scope.key === key) limit = Math.max(limit, scope.limit);
  }
  return limit;
}

function compareCircuit(name: string, r: ModelReplica, seen: ConnectorReplica, read: TimeWindow, after: string): void {
  const c = seen.circuit;
  if (c.consecutive_failures !== r.failures)
    diverged(`after ${after}: replica ${name} has ${c.consecutive_failures} consecutive failures, the model ${r.failures}`);
  const openUntil = c.open_until === null ? null : Date.parse(c.open_until);
  if (r.openUntil === 0) {
    // Never opened, or closed by a completion: nothing to wait for. A completion may leave open_until at its own
    // instant ([circuit-read]), which is no later than the registry's now at the read, itself as late as read.hi.
    if (openUntil !== null && openUntil > read.hi)
      diverged(`after ${after}: replica ${name}'s circuit is open until ${c.open_until}; the model has it closed`);
    if (c.state !== 'closed') diverged(`after ${after}: replica ${name}'s circuit is ${c.state}; the model has it closed`);
    return;
  }
  if (openUntil === null && r.openUntil <= read.hi) {
    // [circuit-read]: after the open period a registry may clear open_until; the circuit is then closed.
    if (c.state !== 'closed') diverged(`after ${after}: replica ${name}'s circuit is ${c.state} with no open_until`);
    Object.assign(r, { openUntil: 0, openUntilSpan: 0 });
    return;
  }
  if (openUntil === null || openUntil < r.openUntil || openUntil > r.openUntil + r.openUntilSpan) {
    diverged(
      `after ${after}: replica ${name}'s circuit is open until ${c.open_until ?? 'never'}; the model expects ${new Date(r.openUntil).toISOString()}${r.openUntilSpan ? ` to +${r.openUntilSpan} ms` : ''}`,
    );
  }
  // The registry stamped the instant; from now on the model knows it exactly.
  r.openUntil = openUntil;
  r.openUntilSpan = 0;
  const expected = openUntil > read.hi ? 'open' : openUntil <= read.lo ? 'closed' : null;
  if (expected !== null && c.state !== expected)
    diverged(`after ${after}: replica ${name}'s circuit is ${c.state}; open until ${c.open_until} it must be ${expected}`);
}

function compareReplica(m: RegistryModel, r: ModelReplica, seen: ConnectorReplica | null, read: TimeWindow, after: string): void {
  const name = m.u.describe(r.provision.id);
  if (!seen) return diverged(`after ${after}: replica ${name} is missing`);
  expectProperty(
    'no-overbooking',
    seen.active_assignments <= seen.capacity,
    () => `after ${after}: replica ${name} holds ${seen.active_assignments} assignments with capacity ${seen.capacity}`,
  );
  const { active_assignments, circuit, ...record } = seen;
  const expected = { ...r.provision, ...r.health };
  const seenLease = Date.parse(record.lease_expires_at);
  if (r.leaseNoLaterThan !== undefined && seenLease <= r.leaseNoLaterThan) {
    // The lease expiry left is now known ([lease-expiry-effect]).
    Object.assign(r, { leaseMs: seenLease, health: { ...r.health, lease_expires_at: record.lease_expires_at } });
    delete r.leaseNoLaterThan;
  }
  const differing = differences(
    { ...record, lease_expires_at: seenLease },
    {
      ...expected,
      lease_expires_at: r.leaseNoLaterThan === undefined ? r.leaseMs : `no later than ${new Date(r.leaseNoLaterThan).toISOString()}`,
    },
  );
  if (differing.length > 0) diverged(`after ${after}: replica ${name} differs from the model at:\n${listed(differing)}`);
  if (active_assignments !== r.active)
    diverged(`after ${after}: replica ${name} holds ${active_assignments} assignments, the model ${r.active}`);
  compareCircuit(name, r, seen, read, after);
}

function compareRoute(m: RegistryModel, actionId: string, seen: RouteView | null, after: string): void {
  const route = m.s.routes[actionId]!;
  const name = m.u.describe(actionId);
  if (!seen) return diverged(`after ${after}: the route of ${name} is missing`);
  const changed = differences(seen.assignment, route.assignment);
  expectProperty(
    'pinned-routes',
    changed.length === 0,
    () => `after ${after}: the stored assignment of ${name} changed at:\n${listed(changed)}`,
  );
  const bookkeeping = differences(
    { reserved: seen.reserved, last_settlement: seen.last_settlement },
    { reserved: route.reserved, last_settlement: route.last },
  );
  if (bookkeeping.length > 0) diverged(`after ${after}: the route of ${name} differs from the model at:\n${listed(bookkeeping)}`);
}

function compareCounter(m: RegistryModel, ref: CounterRef, seen: AdmissionCounter, after: string): void {
  const name = `${ref.kind} counter ${m.u.describe(ref.key)}`;
  const expected = m.s.counters[counterName(ref.kind, ref.key)] ?? 0;
  const held = largestHeldLimit(m.s, ref.kind, ref.key);
  const overbooked = held > 0 && seen.active > held && seen.active > expected;
  expectProperty(
    'no-overbooking',
    !overbooked,
    () => `after ${after}: ${name} is ${seen.active}, above every limit pinned by the reservations it holds (at most ${held})`,
  );
  if (seen.active !== expected) diverged(`after ${after}: ${name} is ${seen.active}, the model ${expected}`);
}

/**
 * What the other states lead to that this one lacks: replicas and routes
 * they have and it has not, which must be absent, and the counters they
 * name, which must hold what this state says. Without them, a write whose
 * answer was lost and which created a record would look, read back, like
 * one that did nothing: the record is not among those the model reads.
 */
function alsoRead(s: ModelState, others: readonly ModelState[]) {
  const replicas = new Set<string>();
  const routes = new Map<string, string>();
  const counters = new Map(countersToRead(s).map((c) => [counterName(c.kind, c.key), c]));
  for (const o of others) {
    for (const id of Object.keys(o.replicas)) if (!s.replicas[id]) replicas.add(id);
    for (const [action, route] of Object.entries(o.routes)) if (!s.routes[action]) routes.set(action, route.assignment.tenant_id);
    for (const c of countersToRead(o)) counters.set(counterName(c.kind, c.key), c);
  }
  return { absentReplicas: [...replicas], absentRoutes: [...routes], counters: [...counters.values()] };
}

/** `others`: the states the registry could be in instead, when the model must tell them apart. */
export async function compareWithModel(
  m: RegistryModel,
  run: RunContext,
  after: string,
  others: readonly ModelState[] = [],
): Promise<void> {
  const s = m.s;
  const replicas = Object.values(s.replicas);
  const actions = Object.keys(s.routes);
  const { absentReplicas, absentRoutes, counters } = alsoRead(s, others);
  const store = run.store;
  const { result, window } = await run.clock.around(() =>
    Promise.all([
      store.catalogRevision(),
      Promise.all(replicas.map((r) => store.getReplica(r.provision.id))),
      Promise.all(counters.map((c) => store.getAdmissionCounter(c.kind, c.key))),
      Promise.all(actions.map((a) => store.route(s.routes[a]!.assignment.tenant_id, a))),
      Promise.all(absentReplicas.map((id) => store.getReplica(id))),
      Promise.all(absentRoutes.map(([action, tenant]) => store.route(tenant, action))),
    ]),
  );
  if (result.status === 'rejected') {
    const err = result.reason;
    if (IndeterminateOutcome.is(err)) skipIndeterminateRun(err);
    if (RegistryError.is(err)) diverged(`after ${after}: reading the registry's state failed with ${err.code}: ${err.message}`);
    throw err;
  }
  const [revision, seenReplicas, seenCounters, seenRoutes, seenAbsentReplicas, seenAbsentRoutes] = result.value;
  if (revision !== s.revision) diverged(`after ${after}: the catalog revision is ${revision}, the model ${s.revision}`);
  absentReplicas.forEach(
    (id, i) => seenAbsentReplicas[i] && diverged(`after ${after}: replica ${m.u.describe(id)} exists; the model has no such replica`),
  );
  absentRoutes.forEach(
    ([action], i) => seenAbsentRoutes[i] && diverged(`after ${after}: ${m.u.describe(action)} has a route; the model has none`),
  );
  replicas.forEach((r, i) => compareReplica(m, r, seenReplicas[i]!, window, after));
  counters.forEach((c, i) => compareCounter(m, c, seenCounters[i]!, after));
  actions.forEach((a, i) => compareRoute(m, a, seenRoutes[i]!, after));
}
