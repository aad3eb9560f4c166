// The history checks of bursts in which clients share actions. With several
// clients on one action, a resolve's answer no longer says that the
// reservation it saw is still held when it returns: a settlement of the same
// action, sent by another client before that answer, may have released it.
// So a resolve's certain hold runs from its completion only until the first
// invocation of anything that may have released it after the resolve began
// (a settlement that released or whose answer was lost, any lease
// maintenance), and the holds of one action are merged, since an action holds
// at most one reservation at a time. A hold counts the tenant retry scope
// only when it certainly came from a retry: a settlement of the action
// certainly released it before the resolve began. The holds then go to the
// overbooking checker's sweep. The other checks: every answer for one action
// carries one identical assignment, distinct actions carry distinct fence
// tokens, and two settlements that both released one action had a resolve
// between them that could have reserved it again.
import { isDeepStrictEqual } from 'node:util';
import type { ScopeReservation } from '../../contract/records.ts';
import { expectProperty } from '../check/violations.ts';
import { describeOp, type Op } from '../check/history.ts';
import { constantCapacity, findOverbooking, type Hold } from './overbooking-checker.ts';

const releasedSurely = (op: Op) => op.kind === 'settle' && op.type === 'ok' && op.released === true;
const mayRelease = (op: Op, action: string) =>
  (op.kind === 'settle' && op.action === action && (op.type === 'info' || releasedSurely(op))) ||
  (op.kind === 'expire' && op.type !== 'fail');
const mayAcquire = (op: Op) => op.kind === 'resolve' && op.type !== 'fail';

interface Span {
  start: number;
  end: number;
  retry: boolean;
}

/** One action's spans cut at every boundary, re-merged by whether each piece is held and held by a retry. */
function mergeSpans(action: string, replica: string, base: ScopeReservation[], retryScope: ScopeReservation | null, spans: Span[]): Hold[] {
  const points = [...new Set(spans.flatMap((s) => [s.start, s.end]))].sort((a, b) => a - b);
  const holds: Hold[] = [];
  let open: Hold | undefined;
  for (let i = 0; i + 1 < points.length; i++) {
    const [lo, hi] = [points[i]!, points[i + 1]!];
    const covering = spans.filter((s) => s.start <= lo && hi <= s.end);
    const retry = covering.some((s) => s.retry) && retryScope !== null;
    const scopes = retry ? [...base, retryScope] : base;
    if (open && covering.length > 0 && open.end === lo && open.scopes.length === scopes.length) {
      open.end = hi;
      continue;
    }
    open = covering.length > 0 ? { action, replica, scopes, start: lo, end: hi } : undefined;
    if (open) holds.push(open);
  }
  return holds;
}

export function sharedHolds(history: readonly Op[], quiescence: number): Hold[] {
  const holds: Hold[] = [];
  for (const action of new Set(history.filter((op) => op.view).map((op) => op.action))) {
    const resolves = history.filter((op) => op.action === action && op.type === 'ok' && op.view);
    const spans = resolves.map((r): Span => {
      const ends = history.filter((m) => mayRelease(m, action) && m.complete > r.invoke).map((m) => m.invoke);
      const retry = history.some((s) => s.action === action && releasedSurely(s) && s.complete <= r.invoke);
      return { start: r.complete, end: Math.min(quiescence, ...ends), retry };
    });
    const a = resolves[0]!.view!.assignment;
    holds.push(
      ...mergeSpans(
        action,
        a.replica_id,
        [...a.admission.base_scopes],
        a.admission.retry_scope,
        spans.filter((s) => s.end > s.start),
      ),
    );
  }
  return holds;
}

export function checkSharedHistory(history: readonly Op[], quiescence: number, capacity: number): void {
  const views = history.filter((op) => op.type === 'ok' && op.view);
  const byAction = new Map<string, Op[]>();
  for (const op of views) byAction.set(op.action, [...(byAction.get(op.action) ?? []), op]);
  const tokens = new Map<string, string>();
  for (const [action, ops] of byAction) {
    const differing = ops.find((op) => !isDeepStrictEqual(op.view!.assignment, ops[0]!.view!.assignment));
    expectProperty(
      'pinned-routes',
      differing === undefined,
      () => `two answers for ${action} carry different assignments:\n    ${[ops[0]!, differing!].map(describeOp).join('\n    ')}`,
    );
    const token = ops[0]!.view!.assignment.fence_token;
    expectProperty('pinned-routes', !tokens.has(token), () => `${action} and ${tokens.get(token)} carry the same fence token ${token}`);
    tokens.set(token, action);
  }
  for (const action of byAction.keys()) {
    const released = history.filter((op) => op.action === action && releasedSurely(op));
    const acquisitions = history.filter((op) => op.action === action && mayAcquire(op));
    const between = (first: Op, second: Op) =>
      first.invoke < second.complete && acquisitions.some((r) => r.complete > first.invoke && r.invoke < second.complete);
    for (const [i, s1] of released.entries()) {
      for (const s2 of released.slice(i + 1)) {
        expectProperty(
          'idempotent-settlement',
          between(s1, s2) || between(s2, s1),
          () =>
            `two settlements released ${action} with no resolve between them that could have reserved it again:\n    ${[s1, s2].map(describeOp).join('\n    ')}`,
        );
      }
    }
  }
  const found = findOverbooking(sharedHolds(history, quiescence), constantCapacity(capacity));
  expectProperty('no-overbooking', found === null, () => {
    const f = found!;
    const ops = history.filter((op) => f.holds.some((h) => h.action === op.action) || op.kind === 'expire');
    return `${f.holds.length} reservations certainly overlapped on ${f.key} (limit ${f.limit}):\n    ${ops.map(describeOp).join('\n    ')}`;
  });
}
