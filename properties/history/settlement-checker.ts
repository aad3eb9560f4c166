// No acknowledged settlement is lost: a settlement the registry answered
// with `released: true` released the route's reservation, so the route read
// back after quiescence is no longer reserved — unless a later operation on
// the same action, one that may have taken effect, could have reserved it
// again. Indeterminate settlements prove nothing either way and are not read.
import type { RouteView } from '../../contract/records.ts';
import { describeOp, type Op } from '../check/history.ts';

export interface LostSettlement {
  settle: Op;
  view: RouteView;
}

export function lostSettlements(history: readonly Op[], views: readonly RouteView[]): LostSettlement[] {
  const byAction = new Map(views.map((v) => [v.assignment.action_id, v]));
  const lost: LostSettlement[] = [];
  for (const op of history) {
    if (op.kind !== 'settle' || op.type !== 'ok' || op.released !== true) continue;
    const view = byAction.get(op.action);
    if (!view?.reserved) continue;
    const mayReserveAgain = history.some(
      (o) => o !== op && o.action === op.action && o.kind !== 'settle' && o.type !== 'fail' && o.complete >= op.invoke,
    );
    if (!mayReserveAgain) lost.push({ settle: op, view });
  }
  return lost;
}

export function describeLostSettlement(l: LostSettlement, history: readonly Op[]): string {
  const slice = history.filter((o) => o.action === l.settle.action).sort((a, b) => a.invoke - b.invoke);
  return `the settlement of ${l.settle.action} was acknowledged as released, yet its route still holds a reservation on ${l.view.assignment.replica_id}:\n    ${slice.map(describeOp).join('\n    ')}`;
}
