// The reference registry served over HTTP inside this process, with a fresh
// signing key: what the HTTP target runs against in tests, and how the
// server-side fault (tenant-from-body) is exercised.
import { generateSigningKeys, signingKeyFromJwk, type SigningKey } from '../../contract/tokens.ts';
import type { Faults } from '../../reference/domain/faults.ts';
import { createRegistryServer } from '../../reference/http/server.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import type { RegistryStore } from '../../reference/store/registry-store.ts';

export interface ReferenceServer {
  url: string;
  key: SigningKey;
  close(): Promise<void>;
}

export async function startReferenceServer(options: { faults?: Faults; store?: RegistryStore } = {}): Promise<ReferenceServer> {
  const { privateJwk, jwks } = await generateSigningKeys();
  const store = options.store ?? new MemoryStore(options.faults ? { faults: options.faults } : {});
  const server = createRegistryServer({ store, jwks, ...(options.faults ? { faults: options.faults } : {}) });
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
