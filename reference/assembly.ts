// How the reference is put together from a store and a server, and the
// decorators that may be wrapped around each part as it is: a store around
// the store, a change to the server's options, and a step once the server
// exists (which may wrap its request listener). Nothing on the request path
// knows of them; the deliberate defects of reference/defects/ are built from
// them, and so can anything else that must sit around a part.
import type { RequestListener } from 'node:http';
import type { JSONWebKeySet } from 'jose';
import type { RegistryLimits } from '../contract/records.ts';
import type { SigningKey } from '../contract/tokens.ts';
import { createRegistryServer, type RegistryServer, type RegistryServerOptions } from './http/server.ts';
import type { RaceHooks } from './store/race-hooks.ts';
import type { RegistryStore } from './store/registry-store.ts';

/** What a step around the server may use: the store it serves, its keys and its limits. */
export interface AssembledParts {
  readonly store: RegistryStore;
  readonly jwks: JSONWebKeySet;
  /** The private key the trusted set belongs to, when this process holds it. */
  readonly signingKey: SigningKey | null;
  readonly limits: RegistryLimits;
}

export interface ReferenceAssembly {
  /** Seams inside a store's atomic steps, given to the store when it is opened. */
  readonly raceHooks?: RaceHooks;
  /** The store the server serves, around the one opened. */
  store?(inner: RegistryStore): RegistryStore;
  /** The server's options, changed. */
  serverOptions?(options: RegistryServerOptions): RegistryServerOptions;
  /** Wraps the server's request listener: `next` answers as the server would. */
  requests?(next: RequestListener, parts: AssembledParts): RequestListener;
}

export const PLAIN_ASSEMBLY: ReferenceAssembly = Object.freeze({});

export function assembledStore(assembly: ReferenceAssembly, inner: RegistryStore): RegistryStore {
  return assembly.store ? assembly.store(inner) : inner;
}

/** The server over `options.store` (already assembled), with the assembly's changes and listener. */
export function assembledServer(
  assembly: ReferenceAssembly,
  options: RegistryServerOptions,
  keys: Pick<AssembledParts, 'signingKey'>,
): RegistryServer {
  const changed = assembly.serverOptions ? assembly.serverOptions(options) : options;
  const server = createRegistryServer(changed);
  if (assembly.requests) {
    const http = server.httpServer;
    const [next] = http.listeners('request') as RequestListener[];
    http.removeAllListeners('request');
    const limits = { ...changed.store.limits, ...changed.limits };
    const parts: AssembledParts = { store: changed.store, jwks: changed.jwks, signingKey: keys.signingKey, limits };
    http.on('request', assembly.requests(next!, parts));
  }
  return server;
}
