// A small seeded generator (mulberry32): the same seed draws the same
// variant on every machine and in every release of Node, which Math.random
// cannot promise. Quality is ample for picking among legal choices.
export interface Draw {
  /** A uniform integer in [min, max]. */
  int(min: number, max: number): number;
  /** An integer in [min, max] spread evenly over orders of magnitude, so small values are drawn as often as large ones. */
  logInt(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(options: readonly T[]): T;
}

export function seededDraw(seed: number): Draw {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    int,
    logInt: (min, max) => Math.min(max, Math.floor(Math.exp(Math.log(min) + next() * (Math.log(max + 1) - Math.log(min))))),
    chance: (p) => next() < p,
    pick: (options) => options[int(0, options.length - 1)]!,
  };
}
