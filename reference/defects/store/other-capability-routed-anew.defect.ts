import { storeDefect } from '../defect.ts';
import { RenamedActions } from '../support/renamed-actions.ts';
import { refusedWith } from '../support/writes.ts';

export default storeDefect({
  name: 'other-capability-routed-anew',
  clause: 'pinned-conflict',
  does: 'resolving a routed action id with another capability or from another tenant routes it anew instead of CONFLICT',
  changes: (inner) => {
    const actions = new RenamedActions();
    return {
      ...actions.reads(inner),
      async resolve(tenantId, request) {
        try {
          return actions.asCalled(
            request.action_id,
            await inner.resolve(tenantId, { ...request, action_id: actions.idOf(request.action_id) }),
          );
        } catch (err) {
          if (!refusedWith(err, 'CONFLICT')) throw err;
          return actions.asCalled(
            request.action_id,
            await inner.resolve(tenantId, { ...request, action_id: actions.renew(request.action_id) }),
          );
        }
      },
    };
  },
});
