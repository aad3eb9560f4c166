// The reference registry started in-process as a conformance target: a real
// HTTP server on port 0 over a store, trusting a fresh Ed25519 key pair
// whose private half the run receives. Tests only; the harness itself never
// imports reference/.
import { generateSigningKeys, signingKeyFromJwk, type SigningKey } from '../../contract/tokens.ts';
import type { FaultName } from '../../reference/domain/faults.ts';
import { createRegistryServer } from '../../reference/http/server.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import type { RegistryStore } from '../../reference/store/registry-store.ts';
import { resolveConfig, type ConformConfig } from '../runner/config.ts';

export interface ReferenceTarget {
  url: string;
  key: SigningKey;
  store: RegistryStore;
  /** A config for this target; the key is passed in memory, so keyFile is a placeholder. */
  config(overrides?: Partial<ConformConfig>): ConformConfig;
  close(): Promise<void>;
}

export async function startReferenceTarget(options: { store?: RegistryStore; faults?: FaultName[]; silent?: boolean } = {}): Promise<ReferenceTarget> {
  const faults = new Set(options.faults ?? []);
  const store = options.store ?? new MemoryStore({ faults });
  const { privateJwk, jwks } = await generateSigningKeys();
  const server = createRegistryServer({ store, jwks, faults, ...(options.silent ? { log: () => {} } : {}) });
  const url = await server.listen(0, '127.0.0.1');
  return {
    url,
    key: await signingKeyFromJwk(privateJwk),
    store,
    config: (overrides = {}) => ({ ...resolveConfig({ target: url, keyFile: '(in memory)' }), ...overrides }),
    async close() {
      await server.close();
      await store.close();
    },
  };
}
