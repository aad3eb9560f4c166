// Fence tokens: `route_` + a UUIDv7 in simple form (32 lowercase hex), unique
// per assignment and time-ordered (spec.md [assignment-fence-token]). Random
// bytes come from a pooled buffer so a resolve does not pay for a syscall.
import { randomFillSync } from 'node:crypto';
import type { FenceTokenFormat } from './choices.ts';

export type FenceTokenSource = () => string;

const POOL_SIZE = 16 * 512;
const pool = Buffer.alloc(POOL_SIZE);
let offset = POOL_SIZE;

/** Writes a UUIDv7 into the next 16 pool bytes (used once) and returns it as hex. */
export function uuidv7Simple(nowMs: number = Date.now()): string {
  if (offset + 16 > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const at = offset;
  offset += 16;
  pool.writeUIntBE(nowMs, at, 6);
  pool[at + 6] = (pool[at + 6]! & 0x0f) | 0x70;
  pool[at + 8] = (pool[at + 8]! & 0x3f) | 0x80;
  return pool.toString('hex', at, at + 16);
}

export const uuidv7FenceTokens: FenceTokenSource = () => `route_${uuidv7Simple()}`;

/** Deterministic tokens for tests: route_000001, route_000002, ... */
export function sequentialFenceTokens(prefix = 'route_'): FenceTokenSource {
  let n = 0;
  return () => `${prefix}${String(++n).padStart(6, '0')}`;
}

/** The fence token format a registry chose ([assignment-fence-token] leaves it open). */
export function fenceTokenSource(format: FenceTokenFormat): FenceTokenSource {
  switch (format) {
    case 'route-uuidv7':
      return uuidv7FenceTokens;
    case 'uuid':
      return () => hyphenated(uuidv7Simple());
    case 'counter-and-random': {
      // Unique across restarts on one database: the counter restarts, the random part does not repeat.
      let n = 0;
      return () => `ft.${(++n).toString(36)}.${uuidv7Simple().slice(16)}`;
    }
  }
}

function hyphenated(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
