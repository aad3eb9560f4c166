// The closed vocabularies of case metadata (test262's features.txt, in code).
// The lint refuses any category or flag not listed here; features come from
// the contract, because an implementation declares them in GET /version.
import { FEATURES, type Feature } from '../../contract/records.ts';

export const CATEGORIES = {
  'auth-and-isolation': 'tokens, roles and tenant isolation (spec.md §3, §19)',
  validation: 'malformed and out-of-bounds input, and what a refusal leaves behind (§1, §2)',
  records: 'record rules: immutability, revisions, references, evidence, digests (§4, §5)',
  revisions: 'the catalog revision (§6)',
  catalog: 'tenant, internal and anonymous catalog visibility and filters (§7)',
  pagination: 'page order, limits, byte bounds, cursors and stale cursors (§8)',
  routing: 'new routes: eligibility, ordering, filters and the assignment (§9, §10)',
  pinned: 'pinned routes and reacquisition (§12)',
  settlement: 'settlement and fencing (§13)',
  admission: 'admission scopes, counters and overbooking (§11)',
  circuits: 'per-replica circuits (§14)',
  leases: 'replica leases and lease maintenance (§15)',
  fleet: 'the fleet status aggregate (§16)',
  batch: 'batch administration (§17)',
  operations: 'health, readiness, version, OpenAPI and metrics endpoints (§18)',
  wire: 'the wire format and the error envelope (§1, §2)',
} as const;

export type Category = keyof typeof CATEGORIES;
export const CATEGORY_NAMES = Object.keys(CATEGORIES) as Category[];

export const FLAGS = {
  concurrent: 'fires real parallel requests and checks the outcome through the API afterwards',
  slow: 'sends or reads large bodies, waits on the server clock, or repeats its bursts; gets four times the case timeout',
  serial: 'observes global state (the catalog revision, lease maintenance); runs alone after the concurrent phase',
  exclusive: 'asserts exact global counts; runs last, alone; errors rather than judge when others write meanwhile',
} as const;

export type Flag = keyof typeof FLAGS;

export { FEATURES, type Feature };

export function isCategory(value: unknown): value is Category {
  return typeof value === 'string' && Object.hasOwn(CATEGORIES, value);
}

export function isFlag(value: unknown): value is Flag {
  return typeof value === 'string' && Object.hasOwn(FLAGS, value);
}

export function isFeature(value: unknown): value is Feature {
  return typeof value === 'string' && (FEATURES as readonly string[]).includes(value);
}
