// No overbooking under concurrency: at no instant do reservations on a replica
// exceed its capacity, or the reservations an admission scope holds exceed
// its limit. In process, fast-check's scheduler explores the interleavings of
// concurrent store calls against the memory store (atomic per call, so
// interleavings are at call granularity); against PostgreSQL and HTTP, real
// parallel clients run and their recorded history is checked. Either way the
// registry's own numbers must then match its routes and, once everything is
// settled, return to their baseline.
import type fc from 'fast-check';
import type { AdmissionPolicy } from '../../contract/records.ts';
import { IndeterminateOutcome, skipIndeterminateRun } from '../check/violations.ts';
import { contentionScenario, renderScenario, type ContentionScenario } from '../history/contention-scenario.ts';
import { StillActing } from '../history/still-acting.ts';
import { auditQuiescence, checkHistory, runClients, type StoreAccess } from '../history/contention-run.ts';
import { scheduledAccess } from '../history/scheduled-access.ts';
import { logicalClock, wallClock, type Instant } from '../check/history.ts';
import type { RegistryModel } from '../model/registry-model.ts';
import { retireRun } from '../model/retire-run.ts';
import { untilAnswered } from '../model/until-answered.ts';
import { seedFleet } from '../model/seed-fleet.ts';
import type { RunContext, Target } from '../targets/target.ts';
import { burstProperty } from './burst-suite.ts';
import type { BuiltProperty, SuiteDefinition } from './suite.ts';

/** Gives every replica the scenario's capacity and the tight policy its limits. */
async function prepare(m: RegistryModel, run: RunContext, s: ContentionScenario): Promise<void> {
  for (const r of Object.values(m.s.replicas)) {
    r.health = { ...r.health, capacity: s.capacity, health_revision: r.health.health_revision + 1 };
    await untilAnswered(run, () => run.store.reportHealth(r.provision.id, r.health));
  }
  const ref = m.u.policy('tight');
  const tight: AdmissionPolicy = {
    ...m.s.policies[ref]!,
    max_binding_in_flight: s.bindingLimit,
    max_instance_in_flight: s.instanceLimit,
    revision: m.s.policies[ref]!.revision + 1,
  };
  await untilAnswered(run, () => run.store.putAdmissionPolicy(tight));
  m.s.policies[ref] = tight;
}

async function burst(target: Target, s: ContentionScenario, scheduler: fc.Scheduler | null): Promise<void> {
  const run = await target.openRun();
  let m: RegistryModel | undefined;
  try {
    m = await seedFleet(run);
    await prepare(m, run, s);
    const baseline = { 'global/fleet': (await run.store.getAdmissionCounter('global', 'fleet')).active };
    let access: StoreAccess = run.store;
    let now: Instant = wallClock();
    if (scheduler) {
      access = scheduledAccess(scheduler, m, run);
      now = logicalClock();
    }
    // Rejections are collected at once so none goes unhandled while the scheduler runs.
    const acting = new StillActing();
    const done = runClients(m, access, s, now, acting).then(
      (history) => ({ history }),
      (error: unknown) => ({ error }),
    );
    if (scheduler) await scheduler.waitIdle();
    const outcome = await done;
    if ('error' in outcome) throw outcome.error;
    await acting.waitOut();
    checkHistory(outcome.history, now(), s);
    const views = await auditQuiescence(m, run.store, outcome.history, baseline, 'after the burst');
    await Promise.all(
      views
        .filter((v) => v.reserved)
        .map((v) => untilAnswered(run, () => run.store.settle(v.assignment.tenant_id, v.assignment.action_id, v.assignment, 'cancelled'))),
    );
    await auditQuiescence(m, run.store, outcome.history, baseline, 'after settling every route');
  } catch (err) {
    // A timeout while preparing or auditing leaves the burst unjudged, like one inside it.
    if (IndeterminateOutcome.is(err)) skipIndeterminateRun(err);
    throw err;
  } finally {
    if (run.shared && m) await retireRun(m, run);
    await run.close();
  }
}

export const noOverbookingSuite: SuiteDefinition = {
  name: 'no-overbooking',
  property: 'no-overbooking',
  summary: 'concurrent routing never books a replica or an admission scope beyond its limit',
  defaultRuns: { memory: 200, postgres: 12, http: 20 },
  build: (target, options): BuiltProperty => burstProperty(target, contentionScenario, burst, renderScenario, options.runs),
};
