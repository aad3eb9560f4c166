import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'settled-route-forgotten',
  clause: 'settle-retains',
  does: 'once settled, a route reads as never routed (NOT_FOUND) until a retry reacquires it',
  changes: (inner) => ({
    async route(tenantId, actionId) {
      const view = await inner.route(tenantId, actionId);
      return view && !view.reserved && view.last_settlement !== null ? null : view;
    },
  }),
});
