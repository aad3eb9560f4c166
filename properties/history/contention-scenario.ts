// A generated burst of concurrent routing: how much room the fleet has
// (replica capacity, the tight policy's limits) and what each client does —
// resolve new actions, settle its latest one, retry it, or lower a busy
// replica's capacity while others route to it. Small numbers on
// purpose: a handful of clients over one or two slots is where races live,
// and where a shrunk counterexample stays readable.
import fc from 'fast-check';
import { SETTLEMENT_OUTCOMES, type SettlementOutcome } from '../../contract/records.ts';
import type { FleetLayout } from '../targets/fleet-layout.ts';
import type { CapabilityKey, ReplicaSlot, TenantKey } from '../targets/universe.ts';

export type ClientStep =
  | { kind: 'resolve'; tenant: TenantKey; capability: CapabilityKey }
  | { kind: 'settle'; outcome: SettlementOutcome }
  | { kind: 'retry' }
  /** A replica of the instance that serves a route of the burst, named by the route, whatever the fleet's layout. */
  | { kind: 'shrink'; tenant: TenantKey; capability: CapabilityKey; slot: ReplicaSlot };

export interface ContentionScenario {
  /** Capacity of every seeded replica during the burst. */
  capacity: number;
  /** The tight policy's binding and instance limits during the burst. */
  bindingLimit: number;
  instanceLimit: number;
  clients: ClientStep[][];
}

/** The routes of a burst: mostly tenant a's search. */
const route = {
  tenant: fc.constantFrom<TenantKey>('a', 'a', 'b'),
  capability: fc.constantFrom<CapabilityKey>('search', 'search', 'fetch'),
};

const resolveStep: fc.Arbitrary<ClientStep> = fc.record({ kind: fc.constant('resolve' as const), ...route });

const step: fc.Arbitrary<ClientStep> = fc.oneof(
  { arbitrary: resolveStep, weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('settle' as const), outcome: fc.constantFrom(...SETTLEMENT_OUTCOMES) }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'retry' as const }), weight: 1 },
  // The replicas the resolves above compete for.
  { arbitrary: fc.record({ kind: fc.constant('shrink' as const), ...route, slot: fc.constantFrom<ReplicaSlot>(1, 2) }), weight: 1 },
);

/** The capacity a shrink reports: one less than the scenario's, never below the schema's minimum. */
export function shrunkCapacity(s: ContentionScenario): number {
  return Math.max(1, s.capacity - 1);
}

/** The instance a shrink lowers: the one first in line for its route. */
export function shrunkInstance(layout: FleetLayout, step: Extract<ClientStep, { kind: 'shrink' }>): string {
  return layout.bindings.find((b) => b.tenant === step.tenant && b.capability === step.capability && b.priority === 0)!.instance;
}

export const contentionScenario = (maxClients: number): fc.Arbitrary<ContentionScenario> =>
  fc.record({
    capacity: fc.integer({ min: 1, max: 3 }),
    bindingLimit: fc.integer({ min: 1, max: 4 }),
    instanceLimit: fc.integer({ min: 1, max: 5 }),
    // Every client starts with a resolve, so no step of a printed scenario is a no-op.
    clients: fc.array(
      fc.tuple(resolveStep, fc.array(step, { maxLength: 3 })).map(([first, rest]) => [first, ...rest]),
      { minLength: 2, maxLength: maxClients },
    ),
  });

function describeStep(s: ClientStep): string {
  if (s.kind === 'resolve') return `resolve a new action as tenant-${s.tenant} for ${s.capability}`;
  if (s.kind === 'settle') return `settle it ${s.outcome}`;
  if (s.kind === 'shrink') return `lower the capacity of replica ${s.slot} serving tenant-${s.tenant}'s ${s.capability} by one`;
  return 'retry it';
}

export function renderScenario(s: ContentionScenario): string[] {
  return [
    `every replica has capacity ${s.capacity}; policy tight allows ${s.bindingLimit} per binding and ${s.instanceLimit} per instance`,
    ...s.clients.map((steps, i) => `client ${i + 1}, concurrently: ${steps.map(describeStep).join('; ')}`),
  ];
}
