// The reference's stores as property targets, for `fleetproof properties
// --store` and the tests that run the suites in-process: the composition
// root hands the suites a store through the contract's port, so properties/
// never imports the reference.
import { MemoryStore } from '../reference/store/memory/memory-store.ts';
import type { PostgresStoreOptions } from '../reference/store/postgres/index.ts';
import type { RegistryStore, StoreOptions } from '../reference/store/registry-store.ts';
import type { Variant } from '../reference/variant/draw-variant.ts';
import { variantOptions } from '../reference/variant/variant-options.ts';
import { memoryTarget } from '../properties/targets/memory-target.ts';
import { postgresTarget } from '../properties/targets/postgres-target.ts';
import type { Target } from '../properties/targets/target.ts';

function description(store: string, variant: Variant | null | undefined, named: string | undefined): string {
  const base = variant ? `${store}, variant ${variant.seed}` : store;
  return named ? `${base} ${named}` : base;
}

/** A variant's limits and choices as store options. */
const storeOptionsOf = (variant: Variant | null | undefined) => variantOptions(variant?.seed).store;

export interface ReferenceMemoryTargetOptions {
  variant?: Variant | null;
  /** How to open each run's store, when not plainly (a development build with a deliberate defect). */
  open?: (options: StoreOptions) => RegistryStore;
  /** What the report says of a store `open` opens, after the store's name. */
  named?: string;
}

/** A fresh memory store per run. */
export function referenceMemoryTarget(options: ReferenceMemoryTargetOptions = {}): Target {
  const open = options.open ?? ((o: StoreOptions) => new MemoryStore(o));
  return memoryTarget({
    description: description('memory store', options.variant, options.named),
    openStore: (clock) => open({ clock, ...storeOptionsOf(options.variant) }),
  });
}

export interface ReferencePostgresTargetOptions {
  /** Owner URL of the database; without it an embedded server is started. */
  url?: string;
  variant?: Variant | null;
  /** How to open the store, e.g. on a fresh test database. */
  open?: (options: PostgresStoreOptions) => Promise<RegistryStore>;
  /** What the report says of a store `open` opens some other way than plainly. */
  named?: string;
}

/** One PostgreSQL store for the whole check; the store is loaded only when asked for. */
export async function referencePostgresTarget(options: ReferencePostgresTargetOptions = {}): Promise<Target> {
  const open = options.open ?? (await import('../reference/store/postgres/index.ts')).openPostgresStore;
  return postgresTarget({
    description: description('PostgreSQL store', options.variant, options.named),
    openStore: (clock) => open({ clock, ...storeOptionsOf(options.variant), ...(options.url ? { url: options.url } : {}) }),
  });
}
