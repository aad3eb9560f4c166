// Contention where clients share actions: duplicate resolves of a new action,
// concurrent settlements of one attempt with different outcomes, concurrent
// retries of one pinned route against a small retry budget, and retries
// racing settlements and lease expiry. In process, fast-check's scheduler
// orders the answers of calls to the memory store; against PostgreSQL and
// HTTP, real parallel clients run. The history must show no overbooking, one
// assignment per action, distinct fence tokens and no attempt released
// twice; the registry's own numbers must match its routes after the burst
// and return to their baseline once everything is settled.
import type fc from 'fast-check';
import type { AdmissionPolicy, RouteView } from '../../contract/records.ts';
import { IndeterminateOutcome, skipIndeterminateRun } from '../check/violations.ts';
import { logicalClock, wallClock, type Instant } from '../check/history.ts';
import { scheduledAccess } from '../history/scheduled-access.ts';
import { auditSharedQuiescence } from '../history/shared-audit.ts';
import { checkSharedHistory } from '../history/shared-checker.ts';
import { StillActing } from '../history/still-acting.ts';
import { runSharedClients, sharedActionId, type SharedAccess } from '../history/shared-run.ts';
import { renderSharedScenario, sharedScenario, type SharedScenario } from '../history/shared-scenario.ts';
import type { RegistryModel } from '../model/registry-model.ts';
import { retireRun } from '../model/retire-run.ts';
import { untilAnswered } from '../model/until-answered.ts';
import { seedFleet } from '../model/seed-fleet.ts';
import type { RunContext, Target } from '../targets/target.ts';
import { burstProperty } from './burst-suite.ts';
import type { BuiltProperty, SuiteDefinition } from './suite.ts';

/** Gives every replica the scenario's capacity and the tight policy its binding and retry limits. */
async function prepare(m: RegistryModel, run: RunContext, s: SharedScenario): Promise<void> {
  for (const r of Object.values(m.s.replicas)) {
    r.health = { ...r.health, capacity: s.capacity, health_revision: r.health.health_revision + 1 };
    await untilAnswered(run, () => run.store.reportHealth(r.provision.id, r.health));
  }
  const ref = m.u.policy('tight');
  const old = m.s.policies[ref]!;
  const tight: AdmissionPolicy = {
    ...old,
    max_binding_in_flight: s.bindingLimit,
    max_tenant_retry_in_flight: s.retryLimit,
    circuit_failure_threshold: 10_000,
    revision: old.revision + 1,
  };
  await untilAnswered(run, () => run.store.putAdmissionPolicy(tight));
  m.s.policies[ref] = tight;
}

async function burst(target: Target, s: SharedScenario, scheduler: fc.Scheduler | null): Promise<void> {
  const run = await target.openRun();
  let m: RegistryModel | undefined;
  try {
    m = await seedFleet(run);
    await prepare(m, run, s);
    const baseline = { 'global/fleet': (await run.store.getAdmissionCounter('global', 'fleet')).active };
    const access: SharedAccess = scheduler ? scheduledAccess(scheduler, m, run) : run.store;
    const now: Instant = scheduler ? logicalClock() : wallClock();
    // Rejections are collected at once so none goes unhandled while the scheduler runs.
    const acting = new StillActing();
    const done = runSharedClients(m, run, access, s, now, acting).then(
      (history) => ({ history }),
      (error: unknown) => ({ error }),
    );
    if (scheduler) await scheduler.waitIdle();
    const outcome = await done;
    if ('error' in outcome) throw outcome.error;
    await acting.waitOut();
    checkSharedHistory(outcome.history, now(), s.capacity);
    const actions = Array.from({ length: s.actions }, (_, i) => sharedActionId(m!, i + 1));
    const views = await auditSharedQuiescence(m, run.store, outcome.history, actions, baseline, 'after the burst');
    await Promise.all(
      views
        .filter((v: RouteView) => v.reserved)
        .map((v) => untilAnswered(run, () => run.store.settle(v.assignment.tenant_id, v.assignment.action_id, v.assignment, 'cancelled'))),
    );
    await auditSharedQuiescence(m, run.store, outcome.history, actions, baseline, 'after settling every route');
  } catch (err) {
    if (IndeterminateOutcome.is(err)) skipIndeterminateRun(err);
    throw err;
  } finally {
    if (run.shared && m) await retireRun(m, run);
    await run.close();
  }
}

export const sharedActionsSuite: SuiteDefinition = {
  name: 'shared-actions',
  property: 'no-overbooking',
  summary: 'clients acting on the same actions at once never overbook, never release an attempt twice, and converge on one assignment',
  // A run is a handful of calls, and over a network only some runs overlap two calls on one action: many runs.
  defaultRuns: { memory: 200, postgres: 40, http: 100 },
  build: (target, options): BuiltProperty => burstProperty(target, sharedScenario, burst, renderSharedScenario, options.runs),
};
