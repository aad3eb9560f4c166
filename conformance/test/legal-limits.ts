// Limit settings a registry may legally declare, each changed alone from the
// defaults: the settings under which a correct registry was once failed. The
// conformance and property tests start the reference with each and demand a
// qualified verdict. Later variants draw their limits from the same option.
import { LIMIT_MINIMUMS, type RegistryLimits } from '../../contract/records.ts';

export const LEGAL_LIMIT_SETTINGS: ReadonlyArray<Partial<RegistryLimits>> = [
  { max_capabilities_per_version: 8 },
  { max_capability_bytes: 6000 },
  { max_page_size: 7 },
  { max_page_size: 49 },
  { max_body_bytes: 200_000 },
];

/** Every limit at the smallest value the contract allows ([limits-declared]). */
export const SMALLEST_LEGAL_LIMITS: Partial<RegistryLimits> = { ...LIMIT_MINIMUMS };

/** The smallest head limits [wire-head-limits] allows: a 2 KiB request target, 8 KiB of header fields, a 48 KiB head. */
export const SMALLEST_WIRE_LIMITS = { maxUrlBytes: 2 * 1024, maxHeaderBytes: 8 * 1024, maxHeadBytes: 48 * 1024 } as const;

export const describeLimits = (limits: Partial<RegistryLimits>): string =>
  Object.entries(limits)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
