import { storeDefect } from '../defect.ts';

/** The internal view lists only capabilities some tenant has a binding for. */
export default storeDefect({
  name: 'internal-view-needs-binding',
  clause: 'catalog-internal',
  does: 'the internal (unbound) catalog view shows only capabilities that some binding names',
  changes: (inner) => {
    const bound = new Set<string>();
    const unbound = (ctx: { tenant_id: string | null; allow_unbound: boolean }) => ctx.tenant_id === null && ctx.allow_unbound;
    return {
      async putBinding(record) {
        const result = await inner.putBinding(record);
        bound.add(record.capability_id);
        return result;
      },
      async queryCatalog(q, ctx) {
        const page = await inner.queryCatalog(q, ctx);
        if (!unbound(ctx)) return page;
        const capabilities = page.capabilities.filter((d) => bound.has(d.capability.id));
        return { ...page, capabilities, total: page.total - (page.capabilities.length - capabilities.length) };
      },
      async getCapability(id, ctx) {
        const found = await inner.getCapability(id, ctx);
        return found && unbound(ctx) && !bound.has(id) ? null : found;
      },
    };
  },
});
