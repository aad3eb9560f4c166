// Runs the clients of a shared-action scenario and records their history.
// A client settles a shared action with the assignment any client last saw
// for it (assignments are pinned, so every view is the same evidence); while
// no client has seen one, it has nothing to present and the step is skipped.
// A lapse is two operations: a health report with a lease in the past, then
// one call of lease maintenance.
import type { StillActing } from './still-acting.ts';
import type { RouteAssignment } from '../../contract/records.ts';
import { IndeterminateOutcome, NotForwarded } from '../check/violations.ts';
import { NOT_FORWARDED } from '../targets/http/call-outcomes.ts';
import { RegistryError } from '../../contract/registry-error.ts';
import type { RegistryModel } from '../model/registry-model.ts';
import type { RunContext, TargetStore } from '../targets/target.ts';
import type { Instant, Op } from '../check/history.ts';
import { EXPIRY_LIMIT, type SharedScenario, type SharedStep } from './shared-scenario.ts';

export type SharedAccess = Pick<TargetStore, 'resolve' | 'settle' | 'reportHealth' | 'expireLeases'>;

/** A lapsed lease lies this far before the registry's now, far outside any call's window. */
const LAPSED_BY_MS = 60_000;

/** [lease-expiry-bounded]: a limit above the declared batch is refused, so the scenario's is capped by it. */
const expiryLimit = (run: RunContext) => Math.min(EXPIRY_LIMIT, run.store.limits.max_expiry_batch);

export function sharedActionId(m: RegistryModel, action: number): string {
  return `${m.u.ns}shared-${action}`;
}

interface SharedBurst {
  m: RegistryModel;
  run: RunContext;
  access: SharedAccess;
  s: SharedScenario;
  now: Instant;
  history: Op[];
  known: Map<string, RouteAssignment>;
  nextRevision: () => number;
  acting: StillActing;
}

async function record(b: SharedBurst, op: Op, call: (op: Op) => Promise<void>): Promise<Op> {
  b.history.push(op);
  try {
    await call(op);
  } catch (err) {
    b.acting.note(err);
    if (IndeterminateOutcome.is(err)) Object.assign(op, { type: 'info', error: err.message });
    else if (RegistryError.is(err)) Object.assign(op, { type: 'fail', error: err.code });
    else if (NotForwarded.is(err)) Object.assign(op, { type: 'fail', error: NOT_FORWARDED });
    else throw err;
  }
  op.complete = b.now();
  return op;
}

async function runStep(b: SharedBurst, client: number, step: SharedStep): Promise<Op | null> {
  const tenant = b.m.u.tenant('a');
  const base = { client, tenant, invoke: b.now(), complete: 0, type: 'ok' as const };
  if (step.kind === 'lapse') {
    const replica = b.m.u.replica('a-alpha', step.slot);
    const report = {
      status: 'ready' as const,
      capacity: b.s.capacity,
      health_revision: b.nextRevision(),
      lease_expires_at: new Date(b.run.clock.now() - LAPSED_BY_MS).toISOString(),
    };
    const lapsed = await record(b, { ...base, kind: 'health', action: replica }, () =>
      b.access.reportHealth(replica, report).then(() => {}),
    );
    if (lapsed.type === 'info') return lapsed;
    return record(b, { ...base, kind: 'expire', action: replica, invoke: b.now() }, () =>
      b.access.expireLeases(expiryLimit(b.run)).then(() => {}),
    );
  }
  const action = sharedActionId(b.m, step.action);
  if (step.kind === 'resolve') {
    return record(b, { ...base, kind: 'resolve', action }, async (op) => {
      op.view = await b.access.resolve(tenant, { action_id: action, capability_id: b.m.u.capability('search') });
      b.known.set(action, op.view.assignment);
    });
  }
  const assignment = b.known.get(action);
  if (!assignment) return null;
  return record(b, { ...base, kind: 'settle', action }, async (op) => {
    op.released = (await b.access.settle(tenant, action, assignment, step.outcome)).released;
  });
}

/** `acting` learns which of the burst's requests may still take effect after it. */
export async function runSharedClients(
  m: RegistryModel,
  run: RunContext,
  access: SharedAccess,
  s: SharedScenario,
  now: Instant,
  acting: StillActing,
): Promise<Op[]> {
  let revision = Math.max(...Object.values(m.s.replicas).map((r) => r.health.health_revision));
  const b: SharedBurst = { m, run, access, s, now, history: [], known: new Map(), nextRevision: () => ++revision, acting };
  await Promise.all(
    s.clients.map(async (steps, i) => {
      // After an indeterminate operation a client issues nothing more ([Jepsen :info]).
      for (const step of steps) if ((await runStep(b, i + 1, step))?.type === 'info') return;
    }),
  );
  return b.history;
}
