// The reference's deliberate defects (reference/domain/faults.ts) and the
// suite that must catch each, with the property it must name and a seed
// that finds it within the detection tests' run count.
import type { FaultName } from '../../reference/domain/faults.ts';
import type { PropertyName } from '../check/violations.ts';
import type { SuiteName } from '../suites/index.ts';

export interface Detection {
  fault: FaultName | 'circuits-never-count';
  suite: SuiteName;
  property: PropertyName;
  seed: number;
  /** Where the fault lives: the store, or the HTTP server in front of it. */
  over?: 'http';
}

export const DEFECTS: readonly Detection[] = [
  { fault: 'reselect-on-retry', suite: 'pinned-routes', property: 'pinned-routes', seed: 101 },
  { fault: 'settle-skip-fence', suite: 'idempotent-settlement', property: 'idempotent-settlement', seed: 102 },
  { fault: 'settle-release-twice', suite: 'idempotent-settlement', property: 'idempotent-settlement', seed: 103 },
  { fault: 'settle-release-twice', suite: 'no-overbooking', property: 'no-overbooking', seed: 104 },
  { fault: 'cursor-skip-revision', suite: 'stale-cursor', property: 'stale-cursor', seed: 105 },
  { fault: 'capacity-outside-lock', suite: 'no-overbooking', property: 'no-overbooking', seed: 106 },
  { fault: 'tenant-from-body', suite: 'tenant-isolation', property: 'tenant-isolation', seed: 107, over: 'http' },
  { fault: 'unbounded-lease-expiry', suite: 'model-agreement', property: 'model-agreement', seed: 108 },
  { fault: 'circuits-never-count', suite: 'circuit-behaviour', property: 'circuit-behaviour', seed: 109 },
  { fault: 'race-settle-release', suite: 'shared-actions', property: 'no-overbooking', seed: 110 },
  { fault: 'race-retry-budget', suite: 'shared-actions', property: 'no-overbooking', seed: 111 },
  { fault: 'race-action-insert', suite: 'shared-actions', property: 'pinned-routes', seed: 112 },
  { fault: 'race-scope-reservation', suite: 'no-overbooking', property: 'no-overbooking', seed: 113 },
  { fault: 'race-replica-capacity', suite: 'no-overbooking', property: 'no-overbooking', seed: 114 },
];
