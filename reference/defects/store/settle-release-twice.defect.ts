import type { RouteView } from '../../../contract/records.ts';
import { storeDefect } from '../defect.ts';

/**
 * A settlement of an already released route releases a reservation again:
 * the units it gives back are those of another attempt on the same replica
 * (one of the same tenant and capability when there is one), which is how
 * counters shared by several attempts lose one twice.
 */
export default storeDefect({
  name: 'settle-release-twice',
  clause: 'settle-idempotent',
  does: 'settling a route that holds no reservation releases capacity again, taken from another attempt on the same replica',
  changes: (inner) => {
    const routed = new Map<string, { tenantId: string; view: RouteView }>();
    const held = async (replicaId: string, like: RouteView) => {
      const candidates = [...routed].filter(([, r]) => r.view.assignment.replica_id === replicaId);
      candidates.sort(
        ([, a], [, b]) =>
          Number(b.view.assignment.capability_id === like.assignment.capability_id) -
          Number(a.view.assignment.capability_id === like.assignment.capability_id),
      );
      for (const [actionId, r] of candidates) {
        const now = await inner.route(r.tenantId, actionId);
        if (now?.reserved) return { actionId, tenantId: r.tenantId, view: now };
      }
      return undefined;
    };
    return {
      async resolve(tenantId, request) {
        const view = await inner.resolve(tenantId, request);
        routed.set(request.action_id, { tenantId, view });
        return view;
      },
      async settle(tenantId, actionId, assignment, outcome) {
        const result = await inner.settle(tenantId, actionId, assignment, outcome);
        const mine = routed.get(actionId);
        if (result.released || !mine) return result;
        const other = await held(mine.view.assignment.replica_id, mine.view);
        if (other) await inner.settle(other.tenantId, other.actionId, other.view.assignment, 'cancelled').catch(() => undefined);
        return result;
      },
    };
  },
});
