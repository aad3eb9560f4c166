// Deliberate defects of the reference (reference/defects/) and the suite
// that must catch each, with the property it must name and a seed that
// finds it within the detection tests' run count.
import type { PropertyName } from '../check/violations.ts';
import type { SuiteName } from '../suites/index.ts';

export interface Detection {
  defect: string;
  suite: SuiteName;
  property: PropertyName;
  seed: number;
}

export const DEFECTS: readonly Detection[] = [
  { defect: 'reselect-on-retry', suite: 'pinned-routes', property: 'pinned-routes', seed: 101 },
  { defect: 'settle-skip-fence', suite: 'idempotent-settlement', property: 'idempotent-settlement', seed: 102 },
  { defect: 'settle-release-twice', suite: 'idempotent-settlement', property: 'idempotent-settlement', seed: 103 },
  { defect: 'settle-release-twice', suite: 'no-overbooking', property: 'no-overbooking', seed: 112 },
  { defect: 'cursor-skip-revision', suite: 'stale-cursor', property: 'stale-cursor', seed: 105 },
  { defect: 'capacity-outside-lock', suite: 'no-overbooking', property: 'no-overbooking', seed: 106 },
  { defect: 'tenant-from-body', suite: 'tenant-isolation', property: 'tenant-isolation', seed: 107 },
  { defect: 'unbounded-lease-expiry', suite: 'model-agreement', property: 'model-agreement', seed: 108 },
  { defect: 'circuit-reads-closed', suite: 'circuit-behaviour', property: 'circuit-behaviour', seed: 109 },
  { defect: 'race-settle-release', suite: 'shared-actions', property: 'no-overbooking', seed: 110 },
  { defect: 'race-retry-budget', suite: 'shared-actions', property: 'no-overbooking', seed: 111 },
  { defect: 'race-action-insert', suite: 'shared-actions', property: 'pinned-routes', seed: 112 },
  { defect: 'race-scope-reservation', suite: 'no-overbooking', property: 'no-overbooking', seed: 113 },
  { defect: 'race-replica-capacity', suite: 'no-overbooking', property: 'no-overbooking', seed: 114 },
];
