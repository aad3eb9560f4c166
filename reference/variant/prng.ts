// The draws a variant is made of, from the seeded generator every replayable
// part of fleetproof shares: the same seed draws the same variant everywhere.
import { seededRandom } from '../../contract/seeded-random.ts';

export interface Draw {
  /** A uniform integer in [min, max]. */
  int(min: number, max: number): number;
  /** An integer in [min, max] spread evenly over orders of magnitude, so small values are drawn as often as large ones. */
  logInt(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(options: readonly T[]): T;
}

export function seededDraw(seed: number): Draw {
  const next = seededRandom(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    int,
    logInt: (min, max) => Math.min(max, Math.floor(Math.exp(Math.log(min) + next() * (Math.log(max + 1) - Math.log(min))))),
    chance: (p) => next() < p,
    pick: (options) => options[int(0, options.length - 1)]!,
  };
}
