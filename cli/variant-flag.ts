// --variant SEED (FLEETPROOF_VARIANT, "variant" in a config file): the seed
// of a reference variant, for every command that starts the reference,
// declared in flags/shared.ts and read here.
import { drawVariant, parseVariantSeed, type Variant } from '../reference/variant/draw-variant.ts';
import { UsageError } from './args.ts';

export function variantOf(text: string | undefined): Variant | null {
  if (text === undefined) return null;
  try {
    return drawVariant(parseVariantSeed(text));
  } catch (err) {
    throw new UsageError(`--variant: ${(err as Error).message}`);
  }
}
