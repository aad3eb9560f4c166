// Canonical JSON (RFC 8785 / JCS) as spec.md [digest-canonical-json] defines
// it: members sorted by UTF-16 code units, no whitespace, ECMAScript number
// and string serialisation. Plain JavaScript so that the reference, the
// harness and the k6 scripts compute digests with the same code.

/**
 * @param {unknown} value a JSON value (no undefined, no non-finite numbers)
 * @returns {string}
 */
export function canonicalJson(value) {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError('canonical JSON has no non-finite numbers');
    if (value === undefined) throw new TypeError('canonical JSON has no undefined');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return '[' + value.map(canonicalJson).join(',') + ']';
  const record = /** @type {Record<string, unknown>} */ (value);
  // The default sort compares UTF-16 code units, as RFC 8785 requires.
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonicalJson(record[k])).join(',') + '}';
}
