// The reference registry served over HTTP inside this process, with a fresh
// signing key: what the HTTP target runs against in tests, and how the
// deliberate defects that live in front of the store are exercised.
import type { RegistryLimits } from '../../contract/records.ts';
import type { SigningKey } from '../../contract/tokens.ts';
import { startDefectiveReference } from '../../reference/defects/defective.ts';
import { startEmbeddedReference, type EmbeddedReferenceOptions } from '../../reference/embedded-reference.ts';
import type { RegistryStore } from '../../reference/store/registry-store.ts';

export interface ReferenceServer {
  url: string;
  key: SigningKey;
  close(): Promise<void>;
}

export interface ReferenceServerOptions {
  /** A deliberate defect to build in, by name (reference/defects/). */
  defect?: string;
  store?: RegistryStore;
  /** Legal limits to declare and enforce instead of the defaults (a store passed in keeps its own). */
  limits?: Partial<RegistryLimits>;
  /** A variant's seed (reference/variant/): its limits (those given win) and choices; a defect composes with it. */
  variant?: number;
}

export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const start = options.defect ? (o: EmbeddedReferenceOptions) => startDefectiveReference(options.defect!, o) : startEmbeddedReference;
  const reference = await start({
    ...(options.store ? { store: options.store } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.variant !== undefined ? { variant: options.variant } : {}),
  });
  return { url: reference.url, key: reference.signingKey, close: () => reference.close() };
}
