import { storeDefect } from '../defect.ts';
import { RenamedActions } from '../support/renamed-actions.ts';

export default storeDefect({
  name: 'retry-after-expiry-reselects',
  clause: 'lease-expiry-keeps-routes',
  does: 'a retry of a route that lease expiry released is routed anew instead of to its pinned assignment',
  changes: (inner) => {
    const actions = new RenamedActions();
    return {
      ...actions.reads(inner),
      async resolve(tenantId, request) {
        const held = await inner.route(tenantId, actions.idOf(request.action_id));
        const expired = held !== null && !held.reserved && held.last_settlement === 'lease_expired';
        const id = expired ? actions.renew(request.action_id) : actions.idOf(request.action_id);
        return actions.asCalled(request.action_id, await inner.resolve(tenantId, { ...request, action_id: id }));
      },
    };
  },
});
