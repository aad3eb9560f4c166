// The reference registry served over HTTP inside this process, with a fresh
// signing key: what the HTTP target runs against in tests, and how the
// server-side fault (tenant-from-body) is exercised.
import type { RegistryLimits } from '../../contract/records.ts';
import { generateSigningKeys, signingKeyFromJwk, type SigningKey } from '../../contract/tokens.ts';
import type { Faults } from '../../reference/domain/faults.ts';
import { createRegistryServer } from '../../reference/http/server.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import type { RegistryStore } from '../../reference/store/registry-store.ts';
import { drawVariant, variantInfo } from '../../reference/variant/draw-variant.ts';

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
  const variant = options.variant === undefined ? null : drawVariant(options.variant);
  const { max_body_bytes, ...storeLimits } = { ...variant?.limits, ...options.limits };
  const choices = variant ? { choices: variant.choices } : {};
  const store = options.store ?? new MemoryStore({ limits: storeLimits, ...choices, ...(options.faults ? { faults: options.faults } : {}) });
  const server = createRegistryServer({
    store,
    jwks,
    ...(options.faults ? { faults: options.faults } : {}),
    ...(max_body_bytes !== undefined ? { limits: { max_body_bytes } } : {}),
    ...(variant ? { choices: variant.choices, variant: variantInfo(variant) } : {}),
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
