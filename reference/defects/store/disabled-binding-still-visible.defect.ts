import { storeDefect } from '../defect.ts';

const UNBOUND = { tenant_id: null, allow_unbound: true };

/**
 * Visibility is decided once, when a binding is first stored: a capability a
 * tenant ever had an enabled binding for stays visible to it, whatever is
 * disabled later (binding, instance, version or type).
 */
export default storeDefect({
  name: 'disabled-binding-still-visible',
  clause: 'catalog-tenant-visibility',
  does: 'a capability stays visible to a tenant after its binding, instance, version or type is disabled',
  changes: (inner) => {
    const seen = new Map<string, Set<string>>();
    const sees = (tenant: string | null, capabilityId: string) => tenant !== null && (seen.get(tenant)?.has(capabilityId) ?? false);
    return {
      async queryCatalog(q, ctx) {
        const page = await inner.queryCatalog(q, ctx);
        for (const d of page.capabilities)
          if (ctx.tenant_id !== null) seen.set(ctx.tenant_id, (seen.get(ctx.tenant_id) ?? new Set()).add(d.capability.id));
        if (q.capability_id === undefined || page.total > 0 || !sees(ctx.tenant_id, q.capability_id)) return page;
        const remembered = await inner.queryCatalog(q, UNBOUND);
        return { ...remembered, next_cursor: null };
      },
      async getCapability(id, ctx) {
        const found = await inner.getCapability(id, ctx);
        if (found && ctx.tenant_id !== null) seen.set(ctx.tenant_id, (seen.get(ctx.tenant_id) ?? new Set()).add(id));
        return found ?? (sees(ctx.tenant_id, id) ? inner.getCapability(id, UNBOUND) : null);
      },
    };
  },
});
