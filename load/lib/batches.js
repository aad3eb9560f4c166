// Splitting batch items into request bodies a target takes: at most
// `maxItems` items and at most `maxBytes` bytes of JSON each (the target's
// max_batch_items and max_body_bytes, spec.md [batch-items], [wire-body-limit]).
// Plain JavaScript with no k6 import, so the k6 flows and the Node runner
// split batches the same way.

/** Bytes of `{"items":[]}` around the items. */
const ENVELOPE_BYTES = 12;

/**
 * @template T
 * @param {T[]} items
 * @param {number} maxBytes
 * @param {number} [maxItems]
 * @returns {T[][]}
 */
export function bySize(items, maxBytes, maxItems = Infinity) {
  /** @type {T[][]} */
  const out = [];
  /** @type {T[]} */
  let current = [];
  let size = ENVELOPE_BYTES;
  for (const item of items) {
    // Ids and records are ASCII, so the string length is the byte length; +1 for the comma.
    const bytes = JSON.stringify(item).length + 1;
    if (current.length > 0 && (current.length >= maxItems || size + bytes > maxBytes)) {
      out.push(current);
      current = [];
      size = ENVELOPE_BYTES;
    }
    current.push(item);
    size += bytes;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** The body limit a plan's target declared, or the smallest legal one for a plan without it. */
export const SMALLEST_LEGAL_BODY_BYTES = 65536;

/**
 * @param {{ limits?: { max_body_bytes: number } }} plan
 * @returns {number}
 */
export function bodyLimitOf(plan) {
  return plan.limits ? plan.limits.max_body_bytes : SMALLEST_LEGAL_BODY_BYTES;
}
