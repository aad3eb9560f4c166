// Which replica a lifecycle command addresses: an instance and a slot.
import fc from 'fast-check';
import type { RegistryModel } from '../registry-model.ts';
import type { FleetLayout } from '../../targets/fleet-layout.ts';
import { REPLICA_SLOTS, type InstanceKey, type ReplicaSlot } from '../../targets/universe.ts';

export interface ReplicaChoice {
  instance: InstanceKey;
  slot: ReplicaSlot;
}

export const replicaChoice = (layout: FleetLayout) =>
  fc.record({ instance: fc.constantFrom(...layout.instanceKeys), slot: fc.constantFrom(...REPLICA_SLOTS) });

export function replicaId(m: Readonly<RegistryModel>, r: ReplicaChoice): string {
  return m.u.replica(r.instance, r.slot);
}

export function describeReplica(r: ReplicaChoice): string {
  return `${r.instance}.${r.slot}`;
}
