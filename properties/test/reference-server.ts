// The reference registry served over HTTP inside this process, with a fresh
// signing key: what the HTTP target runs against in tests, and how the
// server-side fault (tenant-from-body) is exercised.
import type { RegistryLimits } from '../../contract/records.ts';
import { generateSigningKeys, signingKeyFromJwk, type SigningKey } from '../../contract/tokens.ts';
import type { Faults } from '../../reference/domain/faults.ts';
import { createRegistryServer } from '../../reference/http/server.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import type { RegistryStore } from '../../reference/store/registry-store.ts';
import { variantOptions } from '../../reference/variant/variant-options.ts';

export interface ReferenceServer {
  url: string;
  key: SigningKey;
  close(): Promise<void>;
}

export interface ReferenceServerOptions {
  faults?: Faults;
  store?: RegistryStore;
  /** Legal limits to declare and enforce instead of the defaults (a store passed in keeps its own). */
  limits?: Partial<RegistryLimits>;
  /** A variant's seed (reference/variant/): its limits (those given win) and choices; faults compose with it. */
  variant?: number;
}

export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const { privateJwk, jwks } = await generateSigningKeys();
  const split = variantOptions(options.variant, options.limits);
  const store = options.store ?? new MemoryStore({ ...split.store, ...(options.faults ? { faults: options.faults } : {}) });
  const server = createRegistryServer({
    store,
    jwks,
    ...(options.faults ? { faults: options.faults } : {}),
    ...split.server,
  });
  const url = await server.listen(0, '127.0.0.1');
  return {
    url,
    key: await signingKeyFromJwk(privateJwk),
    async close() {
      await server.close();
      await store.close();
    },
  };
}
