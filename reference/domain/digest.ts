// Digests the registry computes (spec.md §5, [admission-scopes]).
import type { Capability, CapabilityDefinition, Manifest } from '../../contract/records.ts';
import { canonicalJson } from '../../contract/canonical-json.js';
import { digestOf, sha256Hex } from '../../contract/digest.ts';

/**
 * The digest and canonical byte length of a manifest. Given the canonical
 * JSON of its capabilities (in order), the manifest's is assembled from them:
 * a manifest has exactly the members capabilities < profiles.
 */
export function manifestFacts(manifest: Manifest, canonicalCapabilities?: readonly string[]): { digest: string; size: number } {
  const canonical = canonicalCapabilities
    ? `{"capabilities":[${canonicalCapabilities.join(',')}],"profiles":${canonicalJson(manifest.profiles)}}`
    : canonicalJson(manifest);
  return { digest: `sha256:${sha256Hex(canonical)}`, size: Buffer.byteLength(canonical, 'utf8') };
}

/**
 * The definition of a capability and the byte length of its canonical JSON,
 * serialising the capability once: the definition's members sort as
 * capability < contract_digest < schema_digest, so its canonical form is
 * assembled from the capability's.
 */
export function sizedCapabilityDefinition(capability: Capability): {
  definition: CapabilityDefinition;
  size: number;
  canonicalCapability: string;
} {
  const canonicalCapability = canonicalJson(capability);
  const contract_digest = `sha256:${sha256Hex(canonicalCapability)}`;
  const schema_digest = digestOf({ input: capability.input_schema, output: capability.output_schema ?? null });
  const canonical = `{"capability":${canonicalCapability},"contract_digest":"${contract_digest}","schema_digest":"${schema_digest}"}`;
  return { definition: { capability, contract_digest, schema_digest }, size: Buffer.byteLength(canonical, 'utf8'), canonicalCapability };
}

const UNIT_SEPARATOR = '\u001f';

/** The key of a binding's admission scope: tenant ␟ capability ␟ instance. */
export function bindingScopeKey(tenantId: string, capabilityId: string, instanceId: string): string {
  return `sha256:${sha256Hex(tenantId + UNIT_SEPARATOR + capabilityId + UNIT_SEPARATOR + instanceId)}`;
}

/**
 * H(s) of spec.md [route-tiebreak]: 32-bit FNV-1a over the UTF-8 bytes of s,
 * finished with MurmurHash3's fmix32 so that ids differing in one character
 * spread over the whole range. Portable and cheap: a resolve hashes the action
 * once, and a replica's value is computed when it is provisioned. A non-zero
 * `salt` changes the offset basis: another deterministic tie-break, as any
 * registry may choose its own.
 */
export function tiebreakHash(s: string, salt = 0): number {
  const basis = (0x811c9dc5 ^ salt) >>> 0;
  let h = basis;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) return tiebreakHashOfBytes(Buffer.from(s, 'utf8'), basis);
    h = Math.imul(h ^ c, 0x01000193);
  }
  return fmix32(h);
}

function tiebreakHashOfBytes(bytes: Uint8Array, basis: number): number {
  let h = basis;
  for (const byte of bytes) h = Math.imul(h ^ byte, 0x01000193);
  return fmix32(h);
}

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The tie-break key of one replica for one action; lower sorts first. */
export function tiebreakKey(replicaHash: number, actionHash: number): number {
  return (replicaHash ^ actionHash) >>> 0;
}
