// Where a run's seed comes from. A given seed (flag or FC_SEED) replays; in CI
// a seed is derived from the pipeline's identifiers, so a failing CI run can
// be replayed from its log; elsewhere it is random. Whatever its source, the
// seed is printed.
import { createHash } from 'node:crypto';

export type SeedSource = 'given' | 'FC_SEED' | 'derived' | 'random';

export interface SeedChoice {
  seed: number;
  source: SeedSource;
  /** What a derived seed was derived from. */
  from?: string;
}

const CI_IDENTIFIERS = [
  'GITHUB_SHA',
  'GITHUB_RUN_ID',
  'GITHUB_RUN_ATTEMPT',
  'CI_COMMIT_SHA',
  'CI_PIPELINE_ID',
  'CI_JOB_ID',
  'BUILD_ID',
  'BUILD_NUMBER',
];

export function parseSeed(text: string): number {
  if (!/^-?[0-9]{1,10}$/.test(text)) throw new RangeError(`a seed is a 32-bit integer, not ${text}`);
  const n = Number(text);
  if (n < -(2 ** 31) || n >= 2 ** 32) throw new RangeError(`a seed is a 32-bit integer, not ${text}`);
  return n | 0;
}

export function chooseSeed(given: number | undefined, env: NodeJS.ProcessEnv = process.env): SeedChoice {
  if (given !== undefined) return { seed: given | 0, source: 'given' };
  if (env['FC_SEED']) return { seed: parseSeed(env['FC_SEED']), source: 'FC_SEED' };
  if (env['CI']) {
    const named = CI_IDENTIFIERS.filter((k) => env[k]).map((k) => `${k}=${env[k]}`);
    // Without pipeline identifiers, the hour: runs of one CI job then agree, and the seed is still printed.
    const from = named.length > 0 ? named.join(' ') : `hour ${new Date().toISOString().slice(0, 13)}`;
    return { seed: createHash('sha256').update(from).digest().readInt32BE(0), source: 'derived', from };
  }
  return { seed: (Date.now() ^ (Math.random() * 2 ** 32)) | 0, source: 'random' };
}

export function describeSeed(c: SeedChoice): string {
  if (c.source === 'derived') return `seed ${c.seed} (derived from ${c.from})`;
  return `seed ${c.seed} (${c.source === 'given' ? 'given' : c.source === 'FC_SEED' ? 'from FC_SEED' : 'random'})`;
}
