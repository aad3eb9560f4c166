// The behaviour suite of the RegistryStore port: one function of a store
// factory, run unchanged against every store (memory, postgres). Test names
// start with the spec.md clause they exercise.
import { describe } from 'node:test';
import { admissionBehaviour } from './admission.behaviour.ts';
import { badInputBehaviour } from './bad-input.behaviour.ts';
import { catalogBehaviour } from './catalog.behaviour.ts';
import { circuitBehaviour } from './circuit.behaviour.ts';
import { fleetBehaviour } from './fleet.behaviour.ts';
import { leaseBehaviour } from './lease.behaviour.ts';
import { paginationBehaviour } from './pagination.behaviour.ts';
import { pinnedBehaviour } from './pinned.behaviour.ts';
import { recordsBehaviour } from './records.behaviour.ts';
import { revisionBehaviour } from './revision.behaviour.ts';
import { routingBehaviour } from './routing.behaviour.ts';
import { settlementBehaviour } from './settlement.behaviour.ts';
import type { StoreFactory } from './world.ts';

export type { StoreFactory } from './world.ts';

export function describeStoreBehaviour(name: string, factory: StoreFactory): void {
  describe(`RegistryStore behaviour: ${name}`, () => {
    recordsBehaviour(factory);
    revisionBehaviour(factory);
    catalogBehaviour(factory);
    paginationBehaviour(factory);
    routingBehaviour(factory);
    pinnedBehaviour(factory);
    admissionBehaviour(factory);
    settlementBehaviour(factory);
    circuitBehaviour(factory);
    leaseBehaviour(factory);
    fleetBehaviour(factory);
    badInputBehaviour(factory);
  });
}
