// Deliberate defects for proving that the conformance and property suites
// catch broken registries. They are reachable only through an explicit option
// (and, from the command line, only when FLEETPROOF_ALLOW_FAULTS=1), never by
// default. Each names the clause it breaks.
import { RACES } from './races.ts';

export const FAULTS = {
  /** Settlement skips the full assignment comparison ([settle-fence]). */
  'settle-skip-fence': 'settle-fence',
  /** Settlement releases capacity again when already released ([settle-idempotent]). */
  'settle-release-twice': 'settle-idempotent',
  /** A retry selects the best replica anew instead of the pinned one ([pinned-identical]). */
  'reselect-on-retry': 'pinned-identical',
  /** Cursors are accepted whatever the revision ([page-stale-cursor]). */
  'cursor-skip-revision': 'page-stale-cursor',
  /** Capacity and scopes are checked, then reserved after a pause ([admission-never-overbooked]). */
  'capacity-outside-lock': 'admission-never-overbooked',
  /** Routing takes the tenant from a body field when present ([auth-tenant-from-token]). */
  'tenant-from-body': 'auth-tenant-from-token',
  /** Lease expiry ignores its limit ([lease-expiry-bounded]). */
  'unbounded-lease-expiry': 'lease-expiry-bounded',
  ...RACES,
} as const;

export type FaultName = keyof typeof FAULTS;
export type Faults = ReadonlySet<FaultName>;
export const NO_FAULTS: Faults = new Set();

export function isFaultName(s: string): s is FaultName {
  return Object.hasOwn(FAULTS, s);
}
