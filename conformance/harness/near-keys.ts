// Keys mutated from real ones (spec.md decision 37): each names no record,
// whatever the registry stores beside it. A mutation that stays within the
// key's pattern reads NOT_FOUND; one that leaves it may also be refused as
// malformed (decision 28). Storage that folds case or trailing spaces, a
// lookup by prefix and a router that stops a parameter at a stray byte each
// answer one of them with the real record.
import type { ErrorCode } from '../../contract/errors.ts';

export interface NearKey {
  key: string;
  /** How it was made from the real key, for the failure message. */
  how: string;
  /** What the contract allows for it. */
  codes: readonly ErrorCode[];
}

const ABSENT: readonly ErrorCode[] = ['NOT_FOUND'];
const MALFORMED_OR_ABSENT: readonly ErrorCode[] = ['NOT_FOUND', 'INVALID_REQUEST'];

/**
 * Keys one step from `key`, none of them among `taken` (the keys the case
 * knows exist). `prefix` is the fixed part that opens the key (`crepl_`, or
 * empty for a token), kept as it is so that only the key's own part changes.
 */
export function nearKeys(key: string, prefix: string, taken: ReadonlySet<string>): NearKey[] {
  const own = key.slice(prefix.length);
  const lastPart = key.lastIndexOf('.');
  const near: NearKey[] = [
    { key: key.slice(0, -1), how: 'its last byte cut', codes: ABSENT },
    { key: `${key}x`, how: 'a byte appended', codes: ABSENT },
    { key: `${prefix}${own.toUpperCase()}`, how: 'its letters in upper case', codes: ABSENT },
    { key: `${key} `, how: 'a space appended', codes: MALFORMED_OR_ABSENT },
    { key: `${key}~`, how: 'a byte outside its pattern appended', codes: MALFORMED_OR_ABSENT },
  ];
  if (prefix !== '') near.push({ key: prefix, how: 'its own part emptied', codes: MALFORMED_OR_ABSENT });
  if (lastPart > prefix.length) near.push({ key: key.slice(0, lastPart), how: 'its last part cut', codes: ABSENT });
  return near.filter((n) => n.key !== key && !taken.has(n.key));
}
