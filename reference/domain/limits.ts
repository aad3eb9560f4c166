// Registry limits (advertised in GET /version). A store refuses limits under
// which a page could hold nothing or a batch would be smaller than the
// contract's minimum.
import type { RegistryLimits } from '../../contract/records.ts';

export function validateLimits(limits: RegistryLimits): RegistryLimits {
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`limit ${name} must be a positive integer`);
  }
  if (limits.max_capability_bytes > limits.max_page_bytes) throw new RangeError('max_capability_bytes cannot exceed max_page_bytes');
  if (limits.max_batch_items < 1000) throw new RangeError('max_batch_items must be at least 1000');
  return Object.freeze({ ...limits });
}
