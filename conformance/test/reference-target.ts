// The reference registry started in-process as a conformance target (the
// embedded reference of reference/embedded-reference.ts), with a config for
// the runner. Tests only; the harness itself never imports reference/.
import type { RegistryLimits } from '../../contract/records.ts';
import type { SigningKey } from '../../contract/tokens.ts';
import { startDefectiveReference } from '../../reference/defects/defective.ts';
import { startEmbeddedReference, type EmbeddedReferenceOptions } from '../../reference/embedded-reference.ts';
import type { ConnectionLimits } from '../../reference/http/connection-limits.ts';
import type { RegistryStore } from '../../reference/store/registry-store.ts';
import { resolveConfig, type ConformConfig } from '../runner/config.ts';

export interface ReferenceTarget {
  url: string;
  key: SigningKey;
  /** The file of the signing key, for runs through the command line. */
  keyPath: string;
  store: RegistryStore;
  /** A config for this target; the key is passed in memory, so keyFile is a placeholder. */
  config(overrides?: Partial<ConformConfig>): ConformConfig;
  close(): Promise<void>;
}

export interface ReferenceTargetOptions {
  store?: RegistryStore | 'memory' | 'postgres';
  /** A deliberate defect to build in, by name (reference/defects/). */
  defect?: string;
  pgUrl?: string;
  silent?: boolean;
  limits?: Partial<RegistryLimits>;
  /** A variant's seed (reference/variant/); a defect and limits compose with it. */
  variant?: number;
  connections?: Partial<ConnectionLimits>;
}

export async function startReferenceTarget(options: ReferenceTargetOptions = {}): Promise<ReferenceTarget> {
  const start = options.defect ? (o: EmbeddedReferenceOptions) => startDefectiveReference(options.defect!, o) : startEmbeddedReference;
  const reference = await start({
    ...(options.store ? { store: options.store } : {}),
    ...(options.pgUrl ? { pgUrl: options.pgUrl } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.variant !== undefined ? { variant: options.variant } : {}),
    ...(options.connections ? { connections: options.connections } : {}),
    logErrors: !options.silent,
  });
  return {
    url: reference.url,
    key: reference.signingKey,
    keyPath: reference.signingKeyPath,
    store: reference.store,
    config: (overrides = {}) => ({ ...resolveConfig({ target: reference.url, keyFile: '(in memory)' }), ...overrides }),
    close: () => reference.close(),
  };
}
