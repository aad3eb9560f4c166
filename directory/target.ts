// The exact target of an observation: one connector instance at one version,
// reachable at one canonical endpoint. The registry has already authorized
// it; the directory only reports topology for it and hands it back unchanged
// on every snapshot and change, so a consumer can check it was not swapped.
import { createHash } from 'node:crypto';
import { invalidInput } from './outcome.ts';
import { base32Lower, deepFreeze, isExactText } from './text.ts';

export interface DirectoryTarget {
  readonly instanceId: string;
  readonly versionId: string;
  /** `sha256:` and 64 lower-case hex digits: the version's manifest digest. */
  readonly manifestDigest: string;
  readonly canonicalEndpoint: string;
  /** The origin of `canonicalEndpoint`, exactly; the credential audience. */
  readonly audience: string;
}

const TARGET_FIELDS = ['instanceId', 'versionId', 'manifestDigest', 'canonicalEndpoint', 'audience'] as const;
const MAX_ENDPOINT_CHARS = 2048;

/**
 * True when `endpoint` is already in the one canonical form: http(s), lower-
 * case host without a trailing dot, no userinfo, query, fragment, percent-
 * escapes, dot segments or default port, and an explicit path. The WHATWG
 * parser canonicalizes all of those, so "canonical" means it changes nothing.
 */
export function isCanonicalEndpoint(endpoint: unknown): endpoint is string {
  if (typeof endpoint !== 'string' || endpoint.length > MAX_ENDPOINT_CHARS || !isExactText(endpoint)) return false;
  if (/[%?#@\s\\]/.test(endpoint) || !/^https?:\/\/[^/]+\//.test(endpoint)) return false;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  return url.href === endpoint && !url.hostname.endsWith('.') && url.username === '' && url.password === '';
}

/** True when `origin` is a canonical http(s) origin with no path at all. */
export function isCanonicalOrigin(origin: unknown): origin is string {
  if (typeof origin !== 'string' || !isExactText(origin) || /[%?#@\s\\]/.test(origin)) return false;
  if (!/^https?:\/\/[^/]+$/.test(origin)) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return url.origin === origin && !url.hostname.endsWith('.');
}

function fieldsValid(t: Record<string, unknown>): boolean {
  if (!TARGET_FIELDS.every((f) => isExactText(t[f]))) return false;
  if (!/^sha256:[0-9a-f]{64}$/.test(t['manifestDigest'] as string)) return false;
  if (!isCanonicalEndpoint(t['canonicalEndpoint']) || !isCanonicalOrigin(t['audience'])) return false;
  // A different audience that is valid on its own is still refused: the
  // audience is derived from the endpoint, never chosen beside it.
  return new URL(t['canonicalEndpoint'] as string).origin === t['audience'];
}

export function isValidTarget(value: unknown): value is DirectoryTarget {
  return typeof value === 'object' && value !== null && fieldsValid(value as Record<string, unknown>);
}

/** Copies and freezes a target; throws `invalid` unless every field is exact. */
export function createTarget(input: DirectoryTarget): DirectoryTarget {
  if (!isValidTarget(input)) throw invalidInput();
  const copy = Object.fromEntries(TARGET_FIELDS.map((f) => [f, input[f]])) as unknown as DirectoryTarget;
  return deepFreeze(copy);
}

export function targetsEqual(a: DirectoryTarget, b: DirectoryTarget): boolean {
  return TARGET_FIELDS.every((f) => a[f] === b[f]);
}

/**
 * The stable key of a target, used as a label value marking the Service that
 * belongs to it: each field as a 4-byte big-endian length and its UTF-8
 * bytes, concatenated, SHA-256, base32 lower-case without padding.
 */
export function targetKey(target: DirectoryTarget): string {
  if (!isValidTarget(target)) throw invalidInput();
  return lengthPrefixedKey(TARGET_FIELDS.map((f) => target[f]));
}

/** The key construction itself, over any ordered list of text fields. */
export function lengthPrefixedKey(fields: readonly string[]): string {
  const hash = createHash('sha256');
  for (const field of fields) {
    const bytes = Buffer.from(field, 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    hash.update(length).update(bytes);
  }
  return base32Lower(hash.digest());
}
