// The order in which eligible replicas take a new action (spec.md [route-order]).
import type { TopologyPreference } from '../../contract/records.ts';
import { tiebreakKey } from './digest.ts';

export interface Candidate {
  priority: number;
  instanceId: string;
  replicaId: string;
  region: string;
  zone: string;
  active: number;
  /** tiebreakHash(replica id), computed when the replica was provisioned. */
  replicaHash: number;
}

function miss(preferred: string | undefined, actual: string): number {
  return preferred === undefined || preferred === actual ? 0 : 1;
}

/** Negative when `a` comes before `b` for this action. */
export function compareCandidates(a: Candidate, b: Candidate, pref: TopologyPreference, actionHash: number): number {
  return (
    a.priority - b.priority ||
    miss(pref.region, a.region) - miss(pref.region, b.region) ||
    miss(pref.zone, a.zone) - miss(pref.zone, b.zone) ||
    a.active - b.active ||
    tiebreakKey(a.replicaHash, actionHash) - tiebreakKey(b.replicaHash, actionHash) ||
    compareBytes(a.instanceId, b.instanceId) ||
    compareBytes(a.replicaId, b.replicaId)
  );
}

/**
 * Byte-wise string order. Identifiers are ASCII by schema, where UTF-16 code
 * unit order and byte order agree, so the plain comparison is exact.
 */
export function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
