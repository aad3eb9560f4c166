import { storeDefect } from '../defect.ts';
import { RenamedActions } from '../support/renamed-actions.ts';

export default storeDefect({
  name: 'reselect-on-retry',
  clause: 'pinned-identical',
  does: 'a retry of a released route selects the best replica anew and answers a fresh assignment instead of the pinned one',
  changes: (inner) => {
    const actions = new RenamedActions();
    return {
      ...actions.reads(inner),
      async resolve(tenantId, request) {
        const held = await inner.route(tenantId, actions.idOf(request.action_id));
        const retry = held !== null && !held.reserved && held.assignment.capability_id === request.capability_id;
        const id = retry ? actions.renew(request.action_id) : actions.idOf(request.action_id);
        return actions.asCalled(request.action_id, await inner.resolve(tenantId, { ...request, action_id: id }));
      },
    };
  },
});
