// A database-backed store as a property target: one store (one database) for
// a whole check, with each run in its own namespace and retired afterwards,
// and a clock the suites drive through the store's clock option. Runs start a
// day apart so that time never runs backwards for the database. Which store
// it is, the composition root decides.
import { DrivenClock, freshNamespace, T0, universeOf, type RunContext, type Target, type TargetStore } from './target.ts';

const DAY_MS = 86_400_000;

export interface PostgresTargetOptions {
  /** Opens the store once, reading its time from `clock`. */
  openStore(clock: () => number): Promise<TargetStore>;
  /** For reports: the store, and any deliberate defects in it. */
  description: string;
}

export async function postgresTarget(options: PostgresTargetOptions): Promise<Target> {
  const clock = new DrivenClock(T0);
  const store = await options.openStore(() => clock.current);
  let runs = 0;
  return {
    kind: 'postgres',
    description: options.description,
    manualClock: true,
    limits: store.limits,
    async openRun(): Promise<RunContext> {
      clock.current = T0 + ++runs * DAY_MS;
      return { store, clock, u: universeOf(freshNamespace(), store.limits), shared: true, close: async () => {} };
    },
    close: () => store.close(),
  };
}
