// Exact-text rules shared by every directory value. Nothing here trims or
// normalizes: a value is either already exact or refused, so what a consumer
// sees is byte for byte what was configured or observed.

const MAX_TEXT_CHARS = 4096;

function hasControl(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** Non-empty, bounded, no surrounding whitespace and no control characters. */
export function isExactText(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_TEXT_CHARS && value.trim() === value && !hasControl(value);
}

/**
 * An opaque identifier or token (a Kubernetes UID, resourceVersion, slice
 * name): exact text without any whitespace, at most `max` characters. It is
 * stored and compared for equality only, never parsed or ordered.
 */
export function isOpaqueToken(value: unknown, max = 253): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= max && !/\s/.test(value) && !hasControl(value);
}

/** Byte order of UTF-16 code units: the one total order used for sorting. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sorted strictly ascending, hence also free of duplicates. */
export function isStrictlySorted<T>(values: readonly T[], compare: (a: T, b: T) => number): boolean {
  for (let i = 1; i < values.length; i++) if (compare(values[i - 1]!, values[i]!) >= 0) return false;
  return true;
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** RFC 4648 base32, lower-case, without padding. */
export function base32Lower(bytes: Uint8Array): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += alphabet[(buffer << (5 - bits)) & 31];
  return out;
}
