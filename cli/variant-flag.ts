// --variant SEED (FLEETPROOF_VARIANT, "variant" in a config file): the seed
// of a reference variant, for every command that starts the reference.
import { drawVariant, parseVariantSeed, type Variant } from '../reference/variant/draw-variant.ts';
import { UsageError, type FlagSpec } from './args.ts';

/** The same setting for every command that starts the reference (serve, certify without --target, properties --store). */
export const VARIANT_FLAG = {
  type: 'string',
  description:
    'start the reference as the variant this seed (0 to 4294967295) draws: every limit and open choice from its legal range, named in GET /version',
} as const satisfies FlagSpec;

export function variantOf(text: string | undefined): Variant | null {
  if (text === undefined) return null;
  try {
    return drawVariant(parseVariantSeed(text));
  } catch (err) {
    throw new UsageError(`--variant: ${(err as Error).message}`);
  }
}
