// The draws a variant is made of, from a seeded generator (mulberry32): the
// same seed gives the same sequence on every machine and in every release of
// Node, which Math.random cannot promise, so a variant replays from the seed
// it prints. Quality is ample for picking among choices; it is not for secrets.

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
