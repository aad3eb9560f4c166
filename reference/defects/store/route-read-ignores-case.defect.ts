import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'route-read-ignores-case',
  clause: 'assignment-read',
  does: 'a route read of an action id in another letter case reads the route of the stored id instead of 404',
  changes: (inner) => ({
    async route(tenantId, actionId) {
      const found = await inner.route(tenantId, actionId);
      return found ?? (actionId === actionId.toLowerCase() ? null : inner.route(tenantId, actionId.toLowerCase()));
    },
  }),
});
