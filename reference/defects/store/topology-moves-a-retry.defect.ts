import { storeDefect } from '../defect.ts';
import { RenamedActions } from '../support/renamed-actions.ts';

export default storeDefect({
  name: 'topology-moves-a-retry',
  clause: 'route-topology-new-only',
  does: 'a retry that states a topology preference is routed anew by it instead of keeping its assignment',
  changes: (inner) => {
    const actions = new RenamedActions();
    return {
      ...actions.reads(inner),
      async resolve(tenantId, request) {
        const held = await inner.route(tenantId, actions.idOf(request.action_id));
        const moved =
          held !== null && !held.reserved && request.topology !== undefined && held.assignment.capability_id === request.capability_id;
        const id = moved ? actions.renew(request.action_id) : actions.idOf(request.action_id);
        return actions.asCalled(request.action_id, await inner.resolve(tenantId, { ...request, action_id: id }));
      },
    };
  },
});
