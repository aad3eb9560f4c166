// The behaviour suite of the RegistryStore port: one function of a store
// factory, run unchanged against every store (memory, postgres). Test names
// start with the spec.md clause they exercise.
import { describe } from 'node:test';
import { recordsBehaviour } from './records.behaviour.ts';
import type { StoreFactory } from './world.ts';

export type { StoreFactory } from './world.ts';

export function describeStoreBehaviour(name: string, factory: StoreFactory): void {
  describe(`RegistryStore behaviour: ${name}`, () => {
    recordsBehaviour(factory);
  });
}
