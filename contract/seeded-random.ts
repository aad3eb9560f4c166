// Deterministic draws in [0, 1) from a seed (mulberry32): the same seed
// gives the same sequence on every machine and in every release of Node,
// which Math.random cannot promise, so a variant, a fault schedule or a
// synthetic run replays from the seed it prints. Quality is ample for
// picking among choices; it is not for secrets.
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
