import { storeDefect } from '../defect.ts';

const UNBOUND = { tenant_id: null, allow_unbound: true };

export default storeDefect({
  name: 'no-context-sees-unbound',
  clause: 'catalog-no-context',
  does: 'a catalog read with neither a tenant nor the internal view answers the internal view instead of nothing',
  changes: (inner) => ({
    queryCatalog: (q, ctx) => inner.queryCatalog(q, ctx.tenant_id === null ? UNBOUND : ctx),
    getCapability: (id, ctx) => inner.getCapability(id, ctx.tenant_id === null ? UNBOUND : ctx),
  }),
});
