// Deterministic draws in [0, 1) from a seed, for what the harness randomises
// and must replay from the seed it prints (the fault proxy's schedule,
// synthetic runs): pure-rand's Mersenne Twister, the same sequence on every
// machine and in every release of Node, which Math.random cannot promise.
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { mersenne } from 'pure-rand/generator/mersenne';

export function seededRandom(seed: number): () => number {
  const generator = mersenne(seed >>> 0);
  return () => uniformFloat64(generator);
}
