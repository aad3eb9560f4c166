// Opening a reference store by kind. The PostgreSQL store is loaded only when
// asked for, so the memory store (the embedded default) never pulls in pg or
// the embedded server.
import { MemoryStore } from './memory/memory-store.ts';
import type { ConnectionQueue } from './postgres/connection-queue.ts';
import type { RegistryStore, StoreOptions } from './registry-store.ts';

export type StoreKind = 'memory' | 'postgres';

export interface OpenStoreOptions extends StoreOptions {
  /** PostgreSQL URL; without it the PostgreSQL store starts an embedded server it owns. */
  pgUrl?: string;
  /** The PostgreSQL store's queue for a connection. */
  pgQueue?: Partial<ConnectionQueue>;
}

export function isStoreKind(value: unknown): value is StoreKind {
  return value === 'memory' || value === 'postgres';
}

export async function openReferenceStore(kind: StoreKind, options: OpenStoreOptions = {}): Promise<RegistryStore> {
  const { pgUrl, pgQueue, ...storeOptions } = options;
  if (kind === 'memory') return new MemoryStore(storeOptions);
  const { openPostgresStore } = await import('./postgres/index.ts');
  return openPostgresStore({ ...storeOptions, ...(pgUrl ? { url: pgUrl } : {}), ...(pgQueue ? { connectionQueue: pgQueue } : {}) });
}
