// Structural validation of everything a caller hands the registry, against
// the component schemas of openapi.yaml — the same validators the HTTP layer
// uses, so library callers and HTTP callers get identical answers.
import { violationOf } from '../../contract/schemas.ts';
import { invalid } from '../../contract/registry-error.ts';

/** Throws INVALID_REQUEST unless `value` conforms to the named schema. */
export function assertShape<T>(schema: string, value: unknown): asserts value is T {
  const violation = violationOf(schema, value);
  if (violation) throw invalid(`${schema}: ${violation.message}`, { path: violation.path });
}

/** Throws INVALID_REQUEST when a list holds the same key twice. */
export function assertUnique(what: string, keys: readonly string[]): void {
  const seen = new Set<string>();
  for (const k of keys) {
    if (seen.has(k)) throw invalid(`${what} ${k} appears twice`);
    seen.add(k);
  }
}

/** Deep equality of JSON values, ignoring member order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], bb[i])) return false;
    return true;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra);
  if (ka.length !== Object.keys(rb).length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(rb, k) || !jsonEqual(ra[k], rb[k])) return false;
  }
  return true;
}

/** The deepest nesting of arrays and objects a request may carry ([wire-nesting]). */
export const MAX_NESTING = 128;

/**
 * Throws INVALID_REQUEST when arrays and objects nest deeper than `max`.
 * Iterative, so that a hostile depth cannot overflow the stack while being
 * measured; everything that later walks the value recursively relies on it.
 */
export function assertNestingAtMost(value: unknown, max: number = MAX_NESTING): void {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) throw invalid(`the value nests deeper than ${max} levels`);
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
}
