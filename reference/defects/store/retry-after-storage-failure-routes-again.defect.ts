import { storeDefect } from '../defect.ts';
import { RenamedActions } from '../support/renamed-actions.ts';
import { refusedWith } from '../support/writes.ts';

export default storeDefect({
  name: 'retry-after-storage-failure-routes-again',
  clause: 'failure-indeterminate',
  does: "a resolve retried after a STORAGE_UNAVAILABLE answer creates a second route instead of converging on the action's one",
  changes: (inner) => {
    const actions = new RenamedActions();
    const failed = new Set<string>();
    return {
      ...actions.reads(inner),
      async resolve(tenantId, request) {
        const id = failed.delete(request.action_id) ? actions.renew(request.action_id) : actions.idOf(request.action_id);
        try {
          return actions.asCalled(request.action_id, await inner.resolve(tenantId, { ...request, action_id: id }));
        } catch (err) {
          if (refusedWith(err, 'STORAGE_UNAVAILABLE')) failed.add(request.action_id);
          throw err;
        }
      },
    };
  },
});
