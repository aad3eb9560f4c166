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

/**
 * Every member path where the registry's value and the model's differ, each
 * with both values in full: a counterexample names what differs instead of
 * leaving a reader to compare two long documents.
 */
export function differences(registry: unknown, model: unknown, path = ''): string[] {
  if (sameJson(registry, model)) return [];
  const bothObjects = typeof registry === 'object' && typeof model === 'object' && registry !== null && model !== null;
  if (bothObjects && !Array.isArray(registry) && !Array.isArray(model)) {
    const ra = registry as Record<string, unknown>;
    const rb = model as Record<string, unknown>;
    return [...new Set([...Object.keys(ra), ...Object.keys(rb)])].flatMap((k) => differences(ra[k], rb[k], path ? `${path}.${k}` : k));
  }
  if (Array.isArray(registry) && Array.isArray(model) && registry.length === model.length) {
    return registry.flatMap((v, i) => differences(v, model[i], `${path}[${i}]`));
  }
  return [`${path || '(value)'}: registry ${shownInFull(registry)}, model ${shownInFull(model)}`];
}

const shownInFull = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));

/** Identifiers are ASCII, where code-unit order is byte order ([page-order]). */
export function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
