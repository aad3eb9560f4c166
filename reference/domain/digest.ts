// Digests the registry computes (spec.md §5, [admission-scopes]).
import { createHash } from 'node:crypto';
import type { Capability, CapabilityDefinition, Manifest } from '../../contract/records.ts';
import { canonicalJson } from '../../contract/canonical-json.js';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function digestOf(value: unknown): string {
  return `sha256:${sha256Hex(canonicalJson(value))}`;
}

export function manifestDigest(manifest: Manifest): string {
  return digestOf(manifest);
}

export function capabilityDefinition(capability: Capability): CapabilityDefinition {
  return {
    capability,
    contract_digest: digestOf(capability),
    schema_digest: digestOf({ input: capability.input_schema, output: capability.output_schema ?? null }),
  };
}

const UNIT_SEPARATOR = '\u001f';

/** The key of a binding's admission scope: tenant ␟ capability ␟ instance. */
export function bindingScopeKey(tenantId: string, capabilityId: string, instanceId: string): string {
  return `sha256:${sha256Hex(tenantId + UNIT_SEPARATOR + capabilityId + UNIT_SEPARATOR + instanceId)}`;
}

/**
 * H(s) of spec.md [route-tiebreak]: the first four bytes of SHA-256(s) as an
 * unsigned big-endian integer. A replica's value is computed once when it is
 * provisioned; a resolve computes only the action's.
 */
export function tiebreakHash(s: string): number {
  return createHash('sha256').update(s, 'utf8').digest().readUInt32BE(0);
}

/** The tie-break key of one replica for one action; lower sorts first. */
export function tiebreakKey(replicaHash: number, actionHash: number): number {
  return (replicaHash ^ actionHash) >>> 0;
}

export function canonicalByteLength(value: unknown): number {
  return Buffer.byteLength(canonicalJson(value), 'utf8');
}
