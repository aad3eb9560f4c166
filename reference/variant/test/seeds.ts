// The variants the tests judge: the fewest fixed seeds found that, together,
// reach the small ends of every limit (page size 1–7, one to eight
// capabilities per version, a body just above 64 KiB, a lease-expiry batch of
// a few), a page size of fifty or more, pages filled in part and in full, a
// revision step of one and of more, and both answers of every open choice;
// plus one fresh seed per run, so the combinations go on changing.
import { randomInt } from 'node:crypto';
import { parseVariantSeed } from '../draw-variant.ts';

export const FIXED_VARIANT_SEEDS: readonly number[] = [1, 4, 975];

/** FLEETPROOF_VARIANT replays one seed; otherwise a fresh one, printed so a failure can be replayed. */
export function freshVariantSeed(env: NodeJS.ProcessEnv = process.env): number {
  const given = env['FLEETPROOF_VARIANT'];
  return given ? parseVariantSeed(given) : randomInt(0, 2 ** 32 - 1);
}

/** The line that replays one variant in one test file. */
export const replayVariant = (seed: number, file = 'reference/variant/test/variants.test') =>
  `FLEETPROOF_VARIANT=${seed} npm test -- ${file}`;
