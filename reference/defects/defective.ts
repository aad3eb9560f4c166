// A reference registry with one deliberate defect, by name: a store, or the
// whole registry served over HTTP. The test API, `npm run power` and the
// command line's development path all start defective registries here.
import { assembledStore } from '../assembly.ts';
import { startEmbeddedReference, type EmbeddedReference, type EmbeddedReferenceOptions } from '../embedded-reference.ts';
import { MemoryStore } from '../store/memory/memory-store.ts';
import { openReferenceStore, type OpenStoreOptions, type StoreKind } from '../store/open-store.ts';
import type { PostgresStoreOptions } from '../store/postgres/index.ts';
import type { RegistryStore } from '../store/registry-store.ts';
import { defectNamed } from './catalogue.ts';
import type { Defect } from './defect.ts';

const defectOf = (d: Defect | string): Promise<Defect> => (typeof d === 'string' ? defectNamed(d) : Promise.resolve(d));

function assertRunsOn(defect: Defect, kind: StoreKind): void {
  if (!defect.stores.includes(kind))
    throw new Error(`defect ${defect.name} (${defect.layer}) runs on ${defect.stores.join(' and ')}, not ${kind}`);
}

/** A reference store of `kind` with the defect's race hooks, wrapped in its store decorator. */
export async function openDefectiveStore(d: Defect | string, kind: StoreKind, options: OpenStoreOptions = {}): Promise<RegistryStore> {
  const defect = await defectOf(d);
  assertRunsOn(defect, kind);
  const assembly = defect.assemble();
  const { raceHooks } = assembly;
  return assembledStore(assembly, await openReferenceStore(kind, { ...options, ...(raceHooks ? { raceHooks } : {}) }));
}

/** The embedded reference with the defect assembled into it. */
export async function startDefectiveReference(d: Defect | string, options: EmbeddedReferenceOptions = {}): Promise<EmbeddedReference> {
  const defect = await defectOf(d);
  const kind = typeof options.store === 'object' ? options.store.kind : (options.store ?? 'memory');
  assertRunsOn(defect, kind);
  return startEmbeddedReference({ ...options, assembly: defect.assemble() });
}

/** A memory store with the defect, opened at once: for callers that open stores synchronously (a property target per run). */
export function defectiveMemoryStore(defect: Defect, options: Omit<OpenStoreOptions, 'pgUrl' | 'pgQueue'> = {}): RegistryStore {
  assertRunsOn(defect, 'memory');
  const assembly = defect.assemble();
  const { raceHooks } = assembly;
  return assembledStore(assembly, new MemoryStore({ ...options, ...(raceHooks ? { raceHooks } : {}) }));
}

/** Opens PostgreSQL stores with the defect, as a property target opens its store. */
export function defectivePostgresOpener(defect: Defect): (options: PostgresStoreOptions) => Promise<RegistryStore> {
  assertRunsOn(defect, 'postgres');
  return async (options) => {
    const assembly = defect.assemble();
    const { openPostgresStore } = await import('../store/postgres/index.ts');
    const { raceHooks } = assembly;
    return assembledStore(assembly, await openPostgresStore({ ...options, ...(raceHooks ? { raceHooks } : {}) }));
  };
}
