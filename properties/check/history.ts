// Histories of concurrent operations, after Jepsen: every operation has an
// invoke time, a complete time and a type — ok (it happened), fail (it
// definitely did not) or info (indeterminate: a timeout, a lost
// connection). Times are only ever compared with each other, so a history
// may use wall-clock milliseconds or a logical counter.
import type { RouteView } from '../../contract/records.ts';

/** `health` is a health report and `expire` a lease maintenance call; their `action` names the replica. */
export type OpKind = 'resolve' | 'retry' | 'settle' | 'health' | 'expire';

export interface Op {
  client: number;
  kind: OpKind;
  tenant: string;
  action: string;
  invoke: number;
  complete: number;
  type: 'ok' | 'fail' | 'info';
  /** The route a resolve or retry returned. */
  view?: RouteView;
  /** Whether a settlement released a reservation. */
  released?: boolean;
  /** The error code of a fail, or why an info is indeterminate. */
  error?: string;
  /** An info that may still take effect in the registry until then (IndeterminateOutcome.mayStillActMs after it completed). */
  actingUntil?: number;
}

/** A source of strictly increasing instants for one history. */
export type Instant = () => number;

export function wallClock(): Instant {
  return () => performance.now();
}

export function logicalClock(): Instant {
  let tick = 0;
  return () => ++tick;
}

export function describeOp(op: Op): string {
  const ok =
    op.kind === 'health' || op.kind === 'expire'
      ? '→ applied'
      : op.view
        ? `→ ${op.view.assignment.replica_id}`
        : `→ released ${op.released}`;
  const outcome = op.type === 'ok' ? ok : `→ ${op.type} ${op.error ?? ''}`;
  return `client ${op.client} ${op.kind} ${op.action} [${op.invoke.toFixed(1)}, ${op.complete.toFixed(1)}] ${outcome}`.trim();
}
