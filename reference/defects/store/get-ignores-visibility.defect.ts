import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'get-ignores-visibility',
  clause: 'catalog-get',
  does: 'reading one capability by id returns it whenever some active version declares it, visible to the caller or not',
  changes: (inner) => ({
    getCapability: async (id, ctx) =>
      (await inner.getCapability(id, ctx)) ?? inner.getCapability(id, { tenant_id: null, allow_unbound: true }),
  }),
});
