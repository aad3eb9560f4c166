import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'foreign-route-readable',
  clause: 'auth-route-isolation',
  does: "reading another tenant's route by its action id returns that route instead of NOT_FOUND",
  changes: (inner) => {
    const owner = new Map<string, string>();
    return {
      async resolve(tenantId, request) {
        const view = await inner.resolve(tenantId, request);
        owner.set(request.action_id, tenantId);
        return view;
      },
      async route(tenantId, actionId) {
        const mine = await inner.route(tenantId, actionId);
        const theirs = owner.get(actionId);
        return mine ?? (theirs === undefined ? null : inner.route(theirs, actionId));
      },
    };
  },
});
