// Deliberate check-then-act races, the defects registries ship most: a check
// and the write it guards split by one turn of the event loop, as an `await`
// between them, a lock taken too late or a read outside the transaction
// would split them. Like the other fault switches (faults.ts), they are off
// unless asked for, and each names the clause it breaks. At each site the
// store runs its write through `afterCheck`, which defers it by one turn when
// that site's race is switched on and the check's answer may be stale.
export const RACES = {
  /** Settlement decides "still reserved" and releases a turn later ([settle-release-once]). */
  'race-settle-release': 'settle-release-once',
  /** A retry checks its scopes and the pinned replica, and reserves a turn later ([pinned-retry-budget]). */
  'race-retry-budget': 'pinned-retry-budget',
  /** A resolve finds the action unrouted and creates its route a turn later ([pinned-reserved]). */
  'race-action-insert': 'pinned-reserved',
  /** A new route checks its admission scopes and reserves them a turn later ([admission-never-overbooked]). */
  'race-scope-reservation': 'admission-never-overbooked',
  /** A new route picks a replica with room and takes its unit a turn later ([admission-never-overbooked]). */
  'race-replica-capacity': 'admission-never-overbooked',
} as const;

export type RaceName = keyof typeof RACES;

/** `write` now, or one event-loop turn later when `race` is among the switched-on faults. */
export function afterCheck<T>(faults: ReadonlySet<string>, race: RaceName, write: () => T): T | Promise<Awaited<T>> {
  if (!faults.has(race)) return write();
  return new Promise<void>((resolve) => setImmediate(resolve)).then(write) as Promise<Awaited<T>>;
}
