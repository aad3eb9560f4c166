// The counts of fleet status ([fleet-status]) and how a case compares their
// movement over a window with the movement its own writes imply.
import type { FleetStatus } from '../../contract/records.ts';

export const FLEET_COUNTS = [
  'connector_types',
  'active_versions',
  'enabled_instances',
  'replicas',
  'ready_replicas',
  'draining_replicas',
  'offline_replicas',
  'expired_leases',
  'ready_capacity',
  'active_assignments',
] as const;

export type FleetCounts = Record<(typeof FLEET_COUNTS)[number], number>;

/** Each count that moved other than `expected` says, named with both figures; null when all moved as expected. */
export function countsOffBy(before: FleetStatus, after: FleetStatus, expected: FleetCounts): string | null {
  const off = FLEET_COUNTS.filter((k) => after[k] - before[k] !== expected[k]);
  return off.length === 0 ? null : off.map((k) => `${k} moved by ${after[k] - before[k]}, not ${expected[k]}`).join('; ');
}

/** Whether no count and not the catalog revision moved between two reads. */
export const countsUnchanged = (before: FleetStatus, after: FleetStatus): boolean =>
  FLEET_COUNTS.every((k) => before[k] === after[k]) && before.catalog_revision === after.catalog_revision;
