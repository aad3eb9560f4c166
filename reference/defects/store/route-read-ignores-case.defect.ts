import { storeDefect } from '../defect.ts';
import { foldedRead } from '../support/folded-keys.ts';

export default storeDefect({
  name: 'route-read-ignores-case',
  clause: 'assignment-read',
  does: 'a route read of an action id in another letter case reads the route of the stored id instead of 404',
  changes: (inner) => ({
    route: (tenantId, actionId) => foldedRead((a) => inner.route(tenantId, a))(actionId),
  }),
});
