// A generated burst in which clients share actions: several clients resolve
// the same few actions at once (the first resolve routes an action, the rest
// are duplicates, or retries once it is released), settle them with
// different outcomes, and let a replica's lease lapse and run lease
// maintenance while the others retry. Every shared action is tenant a's
// `search`, so all of them compete for one binding, its tight policy (whose
// binding and retry limits the scenario sets) and its replicas.
import fc from 'fast-check';
import { SETTLEMENT_OUTCOMES, type SettlementOutcome } from '../../contract/records.ts';
import type { ReplicaSlot } from '../targets/universe.ts';

export type SharedStep =
  | { kind: 'resolve'; action: number }
  | { kind: 'settle'; action: number; outcome: SettlementOutcome }
  | { kind: 'lapse'; slot: ReplicaSlot };

export interface SharedScenario {
  /** How many shared actions the clients pick from. */
  actions: number;
  capacity: number;
  bindingLimit: number;
  retryLimit: number;
  clients: SharedStep[][];
}

/** Lease maintenance after a lapse changes at most this many replicas per call (fewer if the registry's batch is smaller). */
export const EXPIRY_LIMIT = 3;

const stepOver = (actions: number): fc.Arbitrary<SharedStep> => {
  const action = fc.integer({ min: 1, max: actions });
  return fc.oneof(
    { arbitrary: fc.record({ kind: fc.constant('resolve' as const), action }), weight: 4 },
    { arbitrary: fc.record({ kind: fc.constant('settle' as const), action, outcome: fc.constantFrom(...SETTLEMENT_OUTCOMES) }), weight: 3 },
    { arbitrary: fc.record({ kind: fc.constant('lapse' as const), slot: fc.constantFrom<ReplicaSlot>(1, 2) }), weight: 1 },
  );
};

export const sharedScenario = (maxClients: number): fc.Arbitrary<SharedScenario> =>
  fc.integer({ min: 1, max: 3 }).chain((actions) =>
    fc.record({
      actions: fc.constant(actions),
      capacity: fc.integer({ min: 1, max: 3 }),
      bindingLimit: fc.integer({ min: 1, max: 3 }),
      retryLimit: fc.integer({ min: 1, max: 2 }),
      clients: fc.array(fc.array(stepOver(actions), { minLength: 1, maxLength: 4 }), { minLength: 2, maxLength: maxClients }),
    }),
  );

function describeStep(s: SharedStep): string {
  if (s.kind === 'resolve') return `resolve shared action ${s.action}`;
  if (s.kind === 'settle') return `settle shared action ${s.action} ${s.outcome}`;
  return `let the lease of a-alpha.${s.slot} lapse and expire leases (at most ${EXPIRY_LIMIT}, or the registry's max_expiry_batch if smaller)`;
}

export function renderSharedScenario(s: SharedScenario): string[] {
  return [
    `${s.actions} shared action(s) of tenant-a for search; every replica has capacity ${s.capacity}; policy tight allows ${s.bindingLimit} per binding and ${s.retryLimit} retries per tenant`,
    ...s.clients.map((steps, i) => `client ${i + 1}, concurrently: ${steps.map(describeStep).join('; ')}`),
  ];
}
