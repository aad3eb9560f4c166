import { storeDefect } from '../defect.ts';

/** The assignment is stored, and its reservation given back straight away: the route holds nothing while its caller is told it does. */
export default storeDefect({
  name: 'route-stored-without-reservation',
  clause: 'route-atomic',
  does: 'a new route is stored without its reservation: no scope, no replica unit, though the answer says reserved',
  changes: (inner) => ({
    async resolve(tenantId, request) {
      const before = await inner.route(tenantId, request.action_id);
      const view = await inner.resolve(tenantId, request);
      if (before === null) await inner.settle(tenantId, request.action_id, view.assignment, 'cancelled');
      return view;
    },
  }),
});
