// The reference's stores as property targets, for `fleetproof properties
// --store` and the tests that run the suites in-process: the composition
// root hands the suites a store through the contract's port, so properties/
// never imports the reference.
import type { Faults } from '../reference/domain/faults.ts';
import { MemoryStore } from '../reference/store/memory/memory-store.ts';
import type { PostgresStoreOptions } from '../reference/store/postgres/index.ts';
import type { RegistryStore } from '../reference/store/registry-store.ts';
import type { Variant } from '../reference/variant/draw-variant.ts';
import { variantOptions } from '../reference/variant/variant-options.ts';
import { memoryTarget } from '../properties/targets/memory-target.ts';
import { postgresTarget } from '../properties/targets/postgres-target.ts';
import type { Target } from '../properties/targets/target.ts';

function withFaults(store: string, faults: Faults | undefined, variant: Variant | null | undefined): string {
  const named = variant ? `${store}, variant ${variant.seed}` : store;
  return faults?.size ? `${named} with faults ${[...faults].join(', ')}` : named;
}

/** A variant's limits and choices as store options; faults are given beside them. */
const storeOptionsOf = (variant: Variant | null | undefined) => variantOptions(variant?.seed).store;

/** A fresh memory store per run; deliberate defects prove the suites catch them. */
export function referenceMemoryTarget(options: { faults?: Faults; variant?: Variant | null } = {}): Target {
  return memoryTarget({
    description: withFaults('memory store', options.faults, options.variant),
    openStore: (clock) =>
      new MemoryStore({ clock, ...storeOptionsOf(options.variant), ...(options.faults ? { faults: options.faults } : {}) }),
  });
}

export interface ReferencePostgresTargetOptions {
  /** Owner URL of the database; without it an embedded server is started. */
  url?: string;
  faults?: Faults;
  variant?: Variant | null;
  /** How to open the store, e.g. on a fresh test database. */
  open?: (options: PostgresStoreOptions) => Promise<RegistryStore>;
}

/** One PostgreSQL store for the whole check; the store is loaded only when asked for. */
export async function referencePostgresTarget(options: ReferencePostgresTargetOptions = {}): Promise<Target> {
  const open = options.open ?? (await import('../reference/store/postgres/index.ts')).openPostgresStore;
  return postgresTarget({
    description: withFaults('PostgreSQL store', options.faults, options.variant),
    openStore: (clock) =>
      open({
        clock,
        ...storeOptionsOf(options.variant),
        ...(options.url ? { url: options.url } : {}),
        ...(options.faults ? { faults: options.faults } : {}),
      }),
  });
}
