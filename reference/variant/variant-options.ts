// How a variant, and limits given beside it, split between the store and the
// HTTP server that serve it: the store takes every limit but the body limit
// and the store's choices; the server the body limit, its choices and what
// GET /version says of the variant. Every place that starts the reference
// (the embedded reference, `fleetproof serve`, the tests' servers) splits
// them here.
import type { RegistryLimits } from '../../contract/records.ts';
import type { RegistryServerOptions } from '../http/server.ts';
import type { StoreOptions } from '../store/registry-store.ts';
import { drawVariant, variantInfo, type Variant } from './draw-variant.ts';

export interface VariantOptions {
  variant: Variant | null;
  store: Pick<StoreOptions, 'limits' | 'choices'>;
  server: Pick<RegistryServerOptions, 'limits' | 'choices' | 'variant'>;
}

/** `seed`: a variant's seed, or undefined for the reference's own choices; `limits` win over the variant's. */
export function variantOptions(seed: number | undefined, limits: Partial<RegistryLimits> = {}): VariantOptions {
  const variant = seed === undefined ? null : drawVariant(seed);
  const { max_body_bytes, ...storeLimits } = { ...variant?.limits, ...limits };
  return {
    variant,
    store: { limits: storeLimits, ...(variant ? { choices: variant.choices } : {}) },
    server: {
      ...(max_body_bytes !== undefined ? { limits: { max_body_bytes } } : {}),
      ...(variant ? { choices: variant.choices, variant: variantInfo(variant) } : {}),
    },
  };
}
