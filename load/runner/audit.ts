// The invariant audit that follows the load: the runner reads the target's
// state through the API and checks what must hold whatever the latencies.
// A violated invariant fails the run; a read the audit could not make (no
// answer, a 5xx, a token refused) is an error: it shows nothing about the
// registry's state, so it is never counted as a violation.
import { canonicalJson } from '../../contract/canonical-json.js';
import { sha256Hex } from '../../contract/digest.ts';
import type { ScopeKind } from '../../contract/errors.ts';
import type { OperationId } from '../../contract/operations.ts';
import type { Caller } from '../../client/credentials.ts';
import { jsonBody, type OperationRequest } from '../../client/http-transport.ts';
import { operationPath } from '../../client/operation-path.ts';
import type { Journal } from './journal.ts';
import { mapLimited } from './map-limited.ts';
import { planTokenFor, planTransport } from './plan-transport.ts';
import { tenantId, type RunPlan } from './run-plan.ts';

export type InvariantId =
  | 'routes_pinned'
  | 'reservations_released'
  | 'replicas_at_baseline'
  | 'counters_at_baseline'
  | 'never_over_capacity'
  | 'offline_as_expected';

export const INVARIANTS: Record<InvariantId, string> = {
  routes_pinned: 'every route the load was told about is still pinned identically',
  reservations_released: 'every route is settled: none still holds a reservation',
  replicas_at_baseline: 'every replica of the run is back to 0 active assignments',
  counters_at_baseline: 'every admission counter the routes used is back to 0',
  never_over_capacity: 'no replica was ever seen with more active assignments than capacity',
  offline_as_expected: 'exactly the replicas the run expired are offline (those whose expiry got no answer may be either)',
};

export interface InvariantResult {
  id: InvariantId;
  description: string;
  ok: boolean;
  checked: number;
  violations: number;
  /** The first few violations, for people. */
  examples: string[];
}

export interface AuditResult {
  ok: boolean;
  invariants: InvariantResult[];
  /** Reads that could not be made (network, 5xx, a refused token), the first few; they judge nothing. */
  errors: string[];
  /** How many reads could not be made. */
  unread?: number;
}

/** A replica's health as the audit read it, which retirement builds on. */
export interface ReplicaHealth {
  id: string;
  health_revision: number;
  status: string;
  capacity: number;
}

const MAX_EXAMPLES = 10;
const CONCURRENCY = 32;

class Tally {
  checked = 0;
  violations = 0;
  readonly examples: string[] = [];
  constructor(readonly id: InvariantId) {}
  check(ok: boolean, example: () => string): void {
    this.checked++;
    if (ok) return;
    this.violations++;
    if (this.examples.length < MAX_EXAMPLES) this.examples.push(example());
  }
  result(): InvariantResult {
    return {
      id: this.id,
      description: INVARIANTS[this.id],
      ok: this.violations === 0,
      checked: this.checked,
      violations: this.violations,
      examples: this.examples,
    };
  }
}

export interface AuditSubject {
  plan: RunPlan;
  journal: Journal;
  /** Every replica id of the run: the seeded ones and those the run created. */
  replicaIds: string[];
  /**
   * Actions the runner set out to settle before the audit and got no answer for (settle-abandoned.ts): each may
   * still hold a reservation nobody can release, so no baseline it could hold up is judged.
   */
  unsettled?: readonly string[];
}

export async function auditRun({
  plan,
  journal,
  replicaIds,
  unsettled = [],
}: AuditSubject): Promise<{ result: AuditResult; replicas: ReplicaHealth[] }> {
  const transport = planTransport(plan, CONCURRENCY);
  const tokenFor = planTokenFor(plan);
  const errors: string[] = [];
  const control: Caller = { roles: ['registry:reader'] };
  let unread = 0;
  const couldNotRead = (line: string) => {
    unread++;
    if (errors.length < MAX_EXAMPLES) errors.push(line);
  };
  /** The answer, or null when there is none to judge by (recorded as an error). A 404 is an answer: the record is not there. */
  const getJson = async <K extends OperationId>(
    op: K,
    req: OperationRequest<K>,
    as: Caller,
  ): Promise<{ status: number; body: any } | null> => {
    const path = operationPath(op, req).path;
    try {
      const received = await transport.operation(op, { ...req, as });
      const body = jsonBody(received) ?? null;
      if (received.status === 200 || received.status === 404) return { status: received.status, body };
      const code = (body as { error?: { code?: unknown } } | null)?.error?.code;
      couldNotRead(`GET ${path}: answered ${received.status}${typeof code === 'string' ? ` ${code}` : ''}`);
      return null;
    } catch (err) {
      couldNotRead(`GET ${path}: no answer (${(err as Error).message})`);
      return null;
    }
  };
  const open = new Set(unsettled);
  if (open.size > 0)
    couldNotRead(
      `${open.size} action(s) left reserved could not be settled before the audit (no answer): whether replicas and counters are back at baseline is not judged`,
    );
  try {
    const pinned = new Tally('routes_pinned');
    const released = new Tally('reservations_released');
    await mapLimited([...journal.routes.values()], CONCURRENCY, async (route) => {
      const dispatcher: Caller = { roles: ['registry:dispatch'], tenant: route.tenant_id };
      const res =
        tokenFor(dispatcher) !== undefined
          ? await getJson('getRoute', { params: { action_id: route.action_id } }, dispatcher)
          : { status: 0, body: null };
      if (res === null) return;
      const digest = res.status === 200 ? sha256Hex(canonicalJson(res.body.assignment)) : '';
      pinned.check(
        digest === route.digest,
        () =>
          `${route.action_id}: ${res.status === 200 ? 'assignment differs from the one first returned' : `read answered ${res.status}`}`,
      );
      if (res.status === 200 && !open.has(route.action_id))
        released.check(res.body.reserved === false, () => `${route.action_id} still holds a reservation on ${route.replica_id}`);
    });

    const baseline = new Tally('replicas_at_baseline');
    const capacity = new Tally('never_over_capacity');
    const offline = new Tally('offline_as_expected');
    const replicas: ReplicaHealth[] = [];
    for (const o of journal.replicaObservations) {
      capacity.check(
        o.active <= o.capacity,
        () => `${o.id} showed ${o.active} active assignments over capacity ${o.capacity} during ${o.phase}`,
      );
    }
    await mapLimited(replicaIds, CONCURRENCY, async (id) => {
      const res = await getJson('getReplica', { params: { replica_id: id } }, control);
      if (res === null) return;
      if (res.status !== 200) {
        baseline.check(false, () => `${id}: read answered ${res.status}`);
        return;
      }
      const r = res.body;
      replicas.push({ id, health_revision: r.health_revision, status: r.status, capacity: r.capacity });
      if (open.size === 0) baseline.check(r.active_assignments === 0, () => `${id} has ${r.active_assignments} active assignments`);
      capacity.check(
        r.active_assignments <= r.capacity,
        () => `${id} has ${r.active_assignments} active assignments over capacity ${r.capacity}`,
      );
      // A replica whose expiry got no answer somewhere may be offline or not; it judges nothing.
      const expected = journal.offline.has(id) ? true : journal.mayGoOffline.has(id) ? undefined : false;
      if (expected !== undefined)
        offline.check(
          (r.status === 'offline') === expected,
          () => `${id} is ${r.status}, expected ${expected ? 'offline' : 'not offline'}`,
        );
    });

    const counters = new Tally('counters_at_baseline');
    const keys = new Set<string>();
    for (let k = 1; k <= plan.profile.dataset.tenants; k++) {
      keys.add(`tenant\u001f${tenantId(plan.run_id, k)}`);
      keys.add(`tenant_retry\u001f${tenantId(plan.run_id, k)}`);
    }
    for (const route of journal.routes.values()) for (const [kind, key] of route.scopes) keys.add(`${kind}\u001f${key}`);
    await mapLimited([...keys], CONCURRENCY, async (entry) => {
      const [kind, key] = entry.split('\u001f') as [ScopeKind, string];
      // Only the run's own keys have a known baseline (0); a shared global counter does not.
      if ((!key.includes(plan.run_id) && kind !== 'binding') || open.size > 0) return;
      const res = await getJson('getAdmissionCounter', { params: { kind, key } }, control);
      if (res === null) return;
      counters.check(
        res.status === 200 && res.body.active === 0,
        () => `${kind}/${key}: ${res.status === 200 ? `active ${res.body.active}` : `read answered ${res.status}`}`,
      );
    });
    const invariants = [pinned, released, baseline, counters, capacity, offline].map((t) => t.result());
    return { result: { ok: unread === 0 && invariants.every((i) => i.ok), invariants, errors, unread }, replicas };
  } finally {
    await transport.close();
  }
}
