// The deliberate check-then-act races of faults.ts (the `race-*` switches):
// at each site the store runs its write through `afterCheck`, which defers it
// by one turn of the event loop when that site's race is switched on, so the
// answer of the check before it may be stale by the time it writes.
import { FAULT_SWITCHES, type FaultName } from './faults.ts';

export type RaceName = Extract<FaultName, `race-${string}`>;

/** Each race switch's clause, by name. */
export const RACES = Object.fromEntries(
  Object.entries(FAULT_SWITCHES)
    .filter(([name]) => name.startsWith('race-'))
    .map(([name, s]) => [name, s.clause]),
) as {
  readonly [N in RaceName]: (typeof FAULT_SWITCHES)[N]['clause'];
};

/** `write` now, or one event-loop turn later when the site's race is on. */
export function afterCheck<T>(raceOn: boolean, write: () => T): T | Promise<Awaited<T>> {
  if (!raceOn) return write();
  return new Promise<void>((resolve) => setImmediate(resolve)).then(write) as Promise<Awaited<T>>;
}
