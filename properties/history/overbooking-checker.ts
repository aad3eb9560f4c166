// The history checker of "no overbooking under concurrency". From a history
// it derives the interval during which each reservation was *certainly*
// held: from the moment its resolve returned until a settlement that may
// have released it was sent.
// The real hold covers at least that, so if more certain intervals share an
// instant than a replica's capacity (or an admission scope's limit) allows,
// the registry overbooked — no interleaving explains the history otherwise.
// Indeterminate operations contribute no certain interval; a client stops
// after one, as in Jepsen. Each replica and each counter is checked on its
// own sub-history, which keeps the check linear in the history's length.
import type { ScopeReservation } from '../../contract/records.ts';
import type { Op } from '../check/history.ts';

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
    if (op.kind === 'health') continue;
    const held = open.get(op.action);
    if (op.kind === 'settle') {
      // Held until a settlement that may have released it was sent: one that released it or got no answer. A
      // settlement that surely did nothing (refused, or reset before the registry saw it) leaves the hold as it was,
      // and the action's next resolve answers that same reservation, not a retry's.
      if (held && (op.type === 'info' || (op.type === 'ok' && op.released))) {
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
 * What a replica's capacity may have been at an instant: the largest value
 * any interleaving allows. `changes` are the instants after which it surely
 * changed, for the sweep to look again there.
 */
export interface CapacityTimeline {
  at(replica: string, instant: number): number;
  changes(replica: string): number[];
}

export function constantCapacity(capacity: number): CapacityTimeline {
  return { at: () => capacity, changes: () => [] };
}

/**
 * The first instant where more intervals are open than the limit allows: the
 * replica's capacity then, or for a counter the largest limit among the open
 * reservations. The largest, not the smallest: a counter shared by policies
 * with different limits may legitimately pass a smaller one
 * ([admission-counters]), but never every limit of the reservations it holds.
 */
function sweep(
  key: string,
  intervals: Interval[],
  limitAt: (instant: number, open: Interval[]) => number,
  probes: number[],
): Overbooking | null {
  const events = [
    ...intervals.flatMap((i) => [
      { t: i.hold.start, kind: 1, i },
      { t: i.hold.end, kind: 0, i },
    ]),
    ...probes.map((t) => ({ t, kind: 2, i: undefined })),
  ];
  // At equal instants closing comes first: touching intervals need not overlap.
  events.sort((a, b) => a.t - b.t || a.kind - b.kind);
  const active = new Set<Interval>();
  for (const e of events) {
    if (e.kind === 0) active.delete(e.i!);
    if (e.kind === 0 || (e.kind === 1 && e.i!.hold.end <= e.i!.hold.start)) continue;
    if (e.kind === 1) active.add(e.i!);
    const open = [...active];
    const limit = limitAt(e.t, open);
    if (open.length > limit) return { key, limit, at: e.t, holds: open.map((i) => i.hold) };
  }
  return null;
}

export function findOverbooking(holds: readonly Hold[], capacity: CapacityTimeline): Overbooking | null {
  const byKey = new Map<string, { replica?: string; intervals: Interval[] }>();
  const add = (key: string, interval: Interval, replica?: string) => {
    const entry = byKey.get(key) ?? { ...(replica ? { replica } : {}), intervals: [] };
    entry.intervals.push(interval);
    byKey.set(key, entry);
  };
  for (const hold of holds) {
    add(`replica ${hold.replica}`, { hold, limit: 0 }, hold.replica);
    for (const s of hold.scopes) add(`${s.kind}/${s.key}`, { hold, limit: s.limit });
  }
  for (const [key, { replica, intervals }] of byKey) {
    const found = replica
      ? sweep(key, intervals, (t) => capacity.at(replica, t), capacity.changes(replica))
      : sweep(key, intervals, (_t, open) => Math.max(...open.map((i) => i.limit)), []);
    if (found) return found;
  }
  return null;
}
