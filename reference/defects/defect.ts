// A deliberate defect: a registry broken on purpose in one way, to prove
// that the suites catch it. Each lives in a file of its own under store/,
// http/ or race/ (`NAME.defect.ts`, default export), says which MUST clause
// of contract/spec.md it breaks and how, and is built from decorators the
// reference is assembled with (../assembly.ts): around the store, around the
// server's request listener, or, where a check and its write must be pulled
// apart inside one atomic step, through a store's race hooks.
import type { RequestListener } from 'node:http';
import type { RegistryPort } from '../../contract/target-port.ts';
import type { AssembledParts, ReferenceAssembly } from '../assembly.ts';
import type { RegistryServerOptions } from '../http/server.ts';
import type { StoreKind } from '../store/open-store.ts';
import type { RaceHooks } from '../store/race-hooks.ts';
import type { RegistryStore } from '../store/registry-store.ts';
import { decorate } from './support/decorate.ts';

/** What a defect wraps: the store, the HTTP layer, or a store's race hooks. */
export type DefectLayer = 'store' | 'http' | 'race hook';

export interface Defect {
  readonly name: string;
  /** The MUST clause of spec.md it breaks. */
  readonly clause: string;
  readonly layer: DefectLayer;
  /** What the broken registry does, in one sentence. */
  readonly does: string;
  /** The stores it runs on: a store-level defect on both (or where what it breaks happens), an HTTP one over memory, a race hook where the store has the seam. */
  readonly stores: readonly StoreKind[];
  /** The decorators of one defective registry, fresh for each (a defect may keep state per registry). */
  assemble(): ReferenceAssembly;
}

interface Described {
  name: string;
  clause: string;
  does: string;
}

/** Methods of the store replaced; `inner` is the store wrapped, whose other methods stay as they are. */
type StoreChanges = (inner: RegistryStore) => Partial<RegistryPort>;

const BOTH_STORES: readonly StoreKind[] = ['memory', 'postgres'];

/**
 * A defect around the store's port: it runs on both stores, unless what it
 * breaks happens only on some (`stores`, with the reason beside it).
 */
export function storeDefect(d: Described & { changes: StoreChanges; stores?: readonly StoreKind[] }): Defect {
  return described(d, 'store', d.stores ?? BOTH_STORES, () => ({ store: (inner) => decorate(inner, d.changes(inner)) }));
}

interface HttpParts {
  requests?: (next: RequestListener, parts: AssembledParts) => RequestListener;
  serverOptions?: (options: RegistryServerOptions) => RegistryServerOptions;
  changes?: StoreChanges;
}

/**
 * A defect in front of the server: a wrapped request listener, changed server
 * options, and, where what a request says must reach the store, changes to
 * the store beside them; `build` makes them afresh for each registry when
 * they share state. The HTTP layer is the same over either store, so it runs
 * over memory.
 */
export function httpDefect(d: Described & (HttpParts | { build: () => HttpParts })): Defect {
  return described(d, 'http', ['memory'], () => {
    const { requests, serverOptions, changes } = 'build' in d ? d.build() : d;
    return {
      ...(requests ? { requests } : {}),
      ...(serverOptions ? { serverOptions } : {}),
      ...(changes ? { store: (inner: RegistryStore) => decorate(inner, changes(inner)) } : {}),
    };
  });
}

/** A defect through a store's race hooks: it runs on the stores that have the hooks it sets. */
export function raceDefect(d: Described & { hooks: RaceHooks; stores: readonly StoreKind[] }): Defect {
  return described(d, 'race hook', d.stores, () => ({ raceHooks: d.hooks }));
}

function described(d: Described, layer: DefectLayer, stores: readonly StoreKind[], assemble: () => ReferenceAssembly): Defect {
  return Object.freeze({
    name: d.name,
    clause: d.clause,
    layer,
    does: d.does,
    stores,
    assemble,
  });
}

export function isDefect(value: unknown): value is Defect {
  const d = value as Defect | null;
  return (
    typeof d === 'object' && d !== null && typeof d.name === 'string' && typeof d.clause === 'string' && typeof d.assemble === 'function'
  );
}
