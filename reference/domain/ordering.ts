// The order in which eligible replicas take a new action (spec.md [route-order]).
// A rank holds one candidate's sort key; the selection loop refills two rank
// slots in place, so choosing among hundreds of replicas allocates nothing.
import type { Topology, TopologyPreference } from '../../contract/records.ts';
import { tiebreakKey } from './digest.ts';

export interface Rank {
  priority: number;
  regionMiss: number;
  zoneMiss: number;
  active: number;
  tiebreak: number;
  instanceId: string;
  replicaId: string;
}

export function emptyRank(): Rank {
  return { priority: 0, regionMiss: 0, zoneMiss: 0, active: 0, tiebreak: 0, instanceId: '', replicaId: '' };
}

/** Writes the rank of one candidate into `slot` and returns it. */
export function fillRank(
  slot: Rank,
  priority: number,
  instanceId: string,
  replicaId: string,
  topology: Topology,
  active: number,
  replicaHash: number,
  pref: TopologyPreference,
  actionHash: number,
): Rank {
  slot.priority = priority;
  slot.regionMiss = pref.region === undefined || pref.region === topology.region ? 0 : 1;
  slot.zoneMiss = pref.zone === undefined || pref.zone === topology.zone ? 0 : 1;
  slot.active = active;
  slot.tiebreak = tiebreakKey(replicaHash, actionHash);
  slot.instanceId = instanceId;
  slot.replicaId = replicaId;
  return slot;
}

/** Negative when `a` comes before `b`. */
export function compareRanks(a: Rank, b: Rank): number {
  return (
    a.priority - b.priority ||
    a.regionMiss - b.regionMiss ||
    a.zoneMiss - b.zoneMiss ||
    a.active - b.active ||
    a.tiebreak - b.tiebreak ||
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
