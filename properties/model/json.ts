// Small JSON helpers of the model: equality that ignores member order (the
// registry may return members in any order) and byte-wise id order.

export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => sameJson(v, b[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = Object.keys(ra);
  return keys.length === Object.keys(rb).length && keys.every((k) => Object.hasOwn(rb, k) && sameJson(ra[k], rb[k]));
}

/** The first member path where two JSON values differ, for messages; null when equal. */
export function firstDifference(a: unknown, b: unknown, path = ''): string | null {
  if (sameJson(a, b)) return null;
  if (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null && !Array.isArray(a) && !Array.isArray(b)) {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    for (const k of new Set([...Object.keys(ra), ...Object.keys(rb)])) {
      const d = firstDifference(ra[k], rb[k], path ? `${path}.${k}` : k);
      if (d) return d;
    }
  }
  return `${path || '(value)'}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
}

/** Identifiers are ASCII, where code-unit order is byte order ([page-order]). */
export function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
