// How much of one answer the harness reads. No legal answer of the binding
// is larger than what the target's declared limits allow (a page of at most
// max_page_bytes of definitions, a record that fitted in max_body_bytes, a
// batch of max_batch_items results), so the harness reads a few times that
// and no more: a target that answers 512 MB is refused at the bound, without
// the body ever being held in memory. Before the limits are known (GET
// /version and the preflight), the bound is the floor.
import type { RegistryLimits } from '../contract/records.ts';

const MiB = 1024 * 1024;

/** The bound before a target's limits are read, and the least it ever is. */
export const ANSWER_LIMIT_FLOOR_BYTES = 1 * MiB;

/** Room for what a page item or a batch result carries beside the sizes the limits bound (ids, revisions, an error message). */
const PER_ITEM_BYTES = 8 * 1024;
/** A record read back may be re-encoded (escapes, key order) larger than the body that wrote it. */
const REENCODING = 4;

/** The largest answer body a run reads from a target declaring these limits. */
export function answerLimitOf(limits: RegistryLimits): number {
  return Math.max(
    ANSWER_LIMIT_FLOOR_BYTES,
    REENCODING * limits.max_page_bytes + limits.max_page_size * PER_ITEM_BYTES,
    REENCODING * limits.max_body_bytes,
    limits.max_batch_items * PER_ITEM_BYTES,
  );
}

/** `64 MiB`, `512 KiB`, `1234 bytes`: a size as a reader takes it in. */
export function describeBytes(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
