import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'last-settlement-cleared-on-retry',
  clause: 'assignment-read',
  does: 'a route that a retry reacquired reads last_settlement null instead of the outcome that released its previous attempt',
  changes: (inner) => {
    const clear = <V extends { reserved: boolean; last_settlement: unknown } | null>(view: V): V =>
      view && view.reserved ? { ...view, last_settlement: null } : view;
    return {
      resolve: async (tenantId, request) => clear(await inner.resolve(tenantId, request)),
      route: async (tenantId, actionId) => clear(await inner.route(tenantId, actionId)),
    };
  },
});
