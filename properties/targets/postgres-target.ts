// The PostgreSQL store as a property target: one store (one database) for a
// whole check, with each run in its own namespace and retired afterwards, and
// a clock the suites drive through the store's clock option. Runs start a day
// apart so that time never runs backwards for the database.
import type { Faults } from '../../reference/domain/faults.ts';
import { openPostgresStore, type PostgresStoreOptions } from '../../reference/store/postgres/index.ts';
import type { RegistryStore } from '../../reference/store/registry-store.ts';
import { Universe } from '../model/universe.ts';
import { DrivenClock, freshNamespace, T0, type RunContext, type Target } from './target.ts';

const DAY_MS = 86_400_000;

export interface PostgresTargetOptions {
  /** Owner URL of the database; without it an embedded server is started. */
  url?: string;
  faults?: Faults;
  /** How to open the store, e.g. on a fresh test database. */
  open?: (options: PostgresStoreOptions) => Promise<RegistryStore>;
}

export async function postgresTarget(options: PostgresTargetOptions = {}): Promise<Target> {
  const clock = new DrivenClock(T0);
  const open = options.open ?? openPostgresStore;
  const store = await open({ clock: () => clock.current, ...(options.url ? { url: options.url } : {}), ...(options.faults ? { faults: options.faults } : {}) });
  let runs = 0;
  return {
    kind: 'postgres',
    description: `PostgreSQL store${options.faults?.size ? ` with faults ${[...options.faults].join(', ')}` : ''}`,
    manualClock: true,
    async openRun(): Promise<RunContext> {
      clock.current = T0 + ++runs * DAY_MS;
      return { store, clock, u: new Universe(freshNamespace()), shared: true, close: async () => {} };
    },
    close: () => store.close(),
  };
}
