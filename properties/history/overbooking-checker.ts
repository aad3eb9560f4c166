// The history checker of "no overbooking under concurrency". From a history
// it derives the interval during which each reservation was *certainly*
// held: from the moment its resolve returned until its settlement was sent.
// The real hold covers at least that, so if more certain intervals share an
// instant than a replica's capacity (or an admission scope's limit) allows,
// the registry overbooked — no interleaving explains the history otherwise.
// Indeterminate operations contribute no certain interval; a client stops
// after one, as in Jepsen. Each replica and each counter is checked on its
// own sub-history, which keeps the check linear in the history's length.
import type { ScopeReservation } from '../../contract/records.ts';
import type { Op } from './history.ts';

export interface Hold {
  action: string;
  replica: string;
  scopes: ScopeReservation[];
  /** Certainly held from here (the resolve's completion)… */
  start: number;
  /** …until here (the settlement's invocation, or quiescence). */
  end: number;
}

export interface Overbooking {
  /** `replica <id>` or `<kind>/<key>`. */
  key: string;
  limit: number;
  at: number;
  holds: Hold[];
}

/** Reservations certainly held, per action in client order. */
export function certainHolds(history: readonly Op[], quiescence: number): Hold[] {
  const holds: Hold[] = [];
  const open = new Map<string, Hold>();
  // Actions that may have a route: only their later attempts are retries.
  const routed = new Set<string>();
  for (const op of [...history].sort((a, b) => a.invoke - b.invoke)) {
    const held = open.get(op.action);
    if (op.kind === 'settle') {
      // Held until the settlement was sent, whatever its answer.
      if (held && (op.type !== 'ok' || op.released)) {
        held.end = op.invoke;
        holds.push(held);
        open.delete(op.action);
      }
      continue;
    }
    const retry = routed.has(op.action);
    if (op.type !== 'fail') routed.add(op.action);
    if (op.type !== 'ok' || !op.view || held) continue;
    const a = op.view.assignment;
    const scopes = retry && a.admission.retry_scope ? [...a.admission.base_scopes, a.admission.retry_scope] : [...a.admission.base_scopes];
    open.set(op.action, { action: op.action, replica: a.replica_id, scopes, start: op.complete, end: quiescence });
  }
  return [...holds, ...open.values()];
}

interface Interval {
  hold: Hold;
  limit: number;
}

/**
 * The first instant where more intervals are open than the largest limit
 * among them allows. The largest, not the smallest: a counter shared by
 * policies with different limits may legitimately pass a smaller one
 * ([admission-counters]), but never every limit of the reservations it holds.
 */
function sweep(key: string, intervals: Interval[]): Overbooking | null {
  const events = intervals.flatMap((i) => [
    { t: i.hold.start, open: true, i },
    { t: i.hold.end, open: false, i },
  ]);
  // At equal instants closing comes first: touching intervals need not overlap.
  events.sort((a, b) => a.t - b.t || Number(a.open) - Number(b.open));
  const active = new Set<Interval>();
  for (const e of events) {
    if (!e.open) {
      active.delete(e.i);
      continue;
    }
    if (e.i.hold.end <= e.i.hold.start) continue;
    active.add(e.i);
    const limit = Math.max(...[...active].map((i) => i.limit));
    if (active.size > limit) return { key, limit, at: e.t, holds: [...active].map((i) => i.hold) };
  }
  return null;
}

export function findOverbooking(holds: readonly Hold[], capacityOf: (replica: string) => number): Overbooking | null {
  const byKey = new Map<string, Interval[]>();
  const add = (key: string, interval: Interval) => byKey.set(key, [...(byKey.get(key) ?? []), interval]);
  for (const hold of holds) {
    add(`replica ${hold.replica}`, { hold, limit: capacityOf(hold.replica) });
    for (const s of hold.scopes) add(`${s.kind}/${s.key}`, { hold, limit: s.limit });
  }
  for (const [key, intervals] of byKey) {
    const found = sweep(key, intervals);
    if (found) return found;
  }
  return null;
}
