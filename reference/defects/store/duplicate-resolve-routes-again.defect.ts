import { storeDefect } from '../defect.ts';
import { RenamedActions } from '../support/renamed-actions.ts';

export default storeDefect({
  name: 'duplicate-resolve-routes-again',
  clause: 'pinned-reserved',
  does: 'resolving an action whose reservation is still held makes, and reserves, a second route instead of returning the first',
  changes: (inner) => {
    const actions = new RenamedActions();
    return {
      ...actions.reads(inner),
      async resolve(tenantId, request) {
        const held = await inner.route(tenantId, actions.idOf(request.action_id));
        const again = held !== null && held.reserved && held.assignment.capability_id === request.capability_id;
        const id = again ? actions.renew(request.action_id) : actions.idOf(request.action_id);
        return actions.asCalled(request.action_id, await inner.resolve(tenantId, { ...request, action_id: id }));
      },
    };
  },
});
