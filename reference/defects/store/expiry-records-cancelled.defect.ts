import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'expiry-records-cancelled',
  clause: 'lease-expiry-effect',
  does: 'a route whose reservation lease expiry released reads last_settlement cancelled instead of lease_expired',
  changes: (inner) => ({
    async route(tenantId, actionId) {
      const view = await inner.route(tenantId, actionId);
      return view?.last_settlement === 'lease_expired' ? { ...view, last_settlement: 'cancelled' } : view;
    },
  }),
});
