// Which spec.md clauses each property suite establishes, so the report can
// show, per clause, the cases and the properties that cover it.
import type { SuiteName } from '../properties/suites/index.ts';

export const PROPERTY_CLAUSES: Readonly<Record<SuiteName, readonly string[]>> = {
  'pinned-routes': ['pinned-identical', 'pinned-reacquire', 'pinned-replica-conditions', 'lease-expiry-keeps-routes'],
  'idempotent-settlement': ['settle-fence', 'settle-release-once', 'settle-idempotent', 'settle-retains'],
  'stale-cursor': ['page-stale-cursor', 'page-revision', 'page-cursor'],
  'no-overbooking': ['admission-never-overbooked', 'admission-all-or-nothing', 'route-atomic', 'route-contention'],
  'tenant-isolation': ['auth-route-isolation', 'catalog-tenant-visibility', 'auth-tenant-from-token'],
  'circuit-behaviour': ['circuit-counting', 'circuit-opens', 'circuit-half-open'],
  'model-agreement': ['records-identical-put', 'revision-advances', 'revision-stable', 'pinned-reserved'],
  'shared-actions': [
    'pinned-reserved',
    'pinned-retry-budget',
    'settle-release-once',
    'settle-idempotent',
    'assignment-fence-token',
    'lease-expiry-effect',
    'admission-never-overbooked',
  ],
};
