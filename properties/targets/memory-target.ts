// An in-process store as a property target, opened empty for every run with
// a clock the suites drive, so every run is deterministic and replays exactly.
// Which store it is, the composition root decides.
import { DrivenClock, T0, universeOf, type RunContext, type Target, type TargetStore } from './target.ts';

export interface MemoryTargetOptions {
  /** Opens an empty store that reads its time from `clock`. */
  openStore(clock: () => number): TargetStore;
  /** For reports: the store, and any deliberate defects in it. */
  description: string;
}

export function memoryTarget(options: MemoryTargetOptions): Target {
  // Every store it opens declares the same limits; one opened for the purpose tells which.
  const probe = options.openStore(() => T0);
  const limits = probe.limits;
  void probe.close();
  return {
    kind: 'memory',
    description: options.description,
    manualClock: true,
    limits,
    async openRun(): Promise<RunContext> {
      const clock = new DrivenClock(T0);
      const store = options.openStore(() => clock.current);
      return { store, clock, u: universeOf('', store.limits), shared: false, close: () => store.close() };
    },
    async close() {},
  };
}
