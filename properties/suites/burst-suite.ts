// The property of a contention suite: one burst per generated scenario. In
// process, fast-check's scheduler orders the answers of calls to the memory
// store (six clients); against PostgreSQL and HTTP, real parallel clients run
// (eight). A counterexample shows the scenario and, in process, the
// interleaving that broke it.
import fc from 'fast-check';
import { stopOnHarnessError } from '../check/harness-errors.ts';
import type { RunsInFlight } from '../check/runs-in-flight.ts';
import { renderInterleaving } from '../history/scheduled-access.ts';
import type { Target } from '../targets/target.ts';
import type { BuiltProperty } from './suite.ts';

export function burstProperty<S>(
  target: Target,
  scenario: (clients: number) => fc.Arbitrary<S>,
  burst: (target: Target, s: S, scheduler: fc.Scheduler | null) => Promise<void>,
  renderScenario: (s: S) => string[],
  runs: RunsInFlight,
): BuiltProperty {
  const render = (counterexample: unknown): string[] => {
    const [s, scheduler] = counterexample as [S, fc.Scheduler | undefined];
    return [...renderScenario(s), ...(scheduler ? renderInterleaving(scheduler) : [])];
  };
  const replayPathOf = () => undefined;
  if (target.kind === 'memory') {
    const property = fc.asyncProperty(
      scenario(6),
      fc.scheduler(),
      stopOnHarnessError(runs.count((s: S, scheduler: fc.Scheduler) => burst(target, s, scheduler))),
    );
    return {
      check: (p) => fc.check(property, p as fc.Parameters<[S, fc.Scheduler]>) as Promise<fc.RunDetails<unknown>>,
      render,
      replayPathOf,
    };
  }
  const property = fc.asyncProperty(scenario(8), stopOnHarnessError(runs.count((s: S) => burst(target, s, null))));
  return { check: (p) => fc.check(property, p as fc.Parameters<[S]>) as Promise<fc.RunDetails<unknown>>, render, replayPathOf };
}
