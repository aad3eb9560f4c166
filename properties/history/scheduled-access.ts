// The store as the contention suites' scheduled search sees it, in process
// against the memory store.
import type fc from 'fast-check';
import type { RouteAssignment, SettlementOutcome } from '../../contract/records.ts';
import { expectProperty } from '../check/violations.ts';
import type { RegistryModel } from '../model/registry-model.ts';
import { settled, type RunContext, type TargetStore } from '../targets/target.ts';

export type ScheduledAccess = Pick<TargetStore, 'resolve' | 'settle' | 'reportHealth' | 'expireLeases'>;

/**
 * The store as the scheduled search sees it: fast-check's scheduler decides
 * when each call's answer reaches its client, and after every call no
 * replica may hold more than the capacity it reports. Answers travel as settled values, so a
 * call that fails before the scheduler releases it is never an unhandled
 * rejection.
 */
export function scheduledAccess(scheduler: fc.Scheduler, m: RegistryModel, run: RunContext): ScheduledAccess {
  const guarded = <A extends unknown[], R>(name: string, f: (...a: A) => Promise<R>) =>
    // Named, because the scheduler's report labels each call with its function's name.
    Object.defineProperty(
      (...args: A): Promise<PromiseSettledResult<R>> =>
        settled(async () => {
          const result = await f(...args);
          for (const id of Object.keys(m.s.replicas)) {
            const { active_assignments: active, capacity } = (await run.store.getReplica(id))!;
            expectProperty(
              'no-overbooking',
              active <= capacity,
              () => `replica ${m.u.describe(id)} holds ${active} assignments with capacity ${capacity}`,
            );
          }
          return result;
        }),
      'name',
      { value: name },
    );
  const unwrap =
    <A extends unknown[], R>(f: (...a: A) => Promise<PromiseSettledResult<R>>) =>
    async (...args: A): Promise<R> => {
      const r = await f(...args);
      if (r.status === 'rejected') throw r.reason;
      return r.value;
    };
  // Settlements are scheduled by action and outcome, so the report's lines stay short.
  const presented = new Map<string, RouteAssignment>();
  const settle = unwrap(
    scheduler.scheduleFunction(
      guarded('settle', (tenant: string, action: string, outcome: SettlementOutcome) =>
        run.store.settle(tenant, action, presented.get(action)!, outcome),
      ),
    ),
  );
  return {
    resolve: unwrap(scheduler.scheduleFunction(guarded('resolve', run.store.resolve.bind(run.store)))),
    reportHealth: unwrap(scheduler.scheduleFunction(guarded('reportHealth', run.store.reportHealth.bind(run.store)))),
    expireLeases: unwrap(scheduler.scheduleFunction(guarded('expireLeases', run.store.expireLeases.bind(run.store)))),
    settle: (tenant, action, assignment, outcome) => {
      presented.set(action, assignment);
      return settle(tenant, action, outcome);
    },
  };
}

/** The order the scheduler released the calls in, one short line per call. */
export function renderInterleaving(scheduler: fc.Scheduler): string[] {
  return scheduler.report().map((task) => {
    const label = task.label.replace(/^function::/, '');
    return `  then ${label.length > 110 ? `${label.slice(0, 110)}…` : label}${task.status === 'pending' ? ' (never released)' : ''}`;
  });
}
