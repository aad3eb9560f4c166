// Tenant-scoped catalog reads (spec.md §7–§8). The context comes from the
// token alone: its tenant claim, or — with no tenant — the registry:internal
// role together with unbound=true.
import type { CatalogContext, CatalogQuery } from '../../../contract/records.ts';
import { RegistryError } from '../../../contract/registry-error.ts';
import type { Principal } from '../authenticate.ts';
import { found, ok, principalOf, type HandlerTable } from '../operation.ts';

const INTERNAL_ROLE = 'registry:internal';

/** [catalog-tenant-precedence], [catalog-internal], [catalog-no-context]. */
export function catalogContext(principal: Principal, unbound: boolean): CatalogContext {
  if (principal.tenantId !== null) return { tenant_id: principal.tenantId, allow_unbound: false };
  if (!unbound) return { tenant_id: null, allow_unbound: false };
  if (!principal.roles.has(INTERNAL_ROLE)) throw new RegistryError('FORBIDDEN', `unbound catalog reads need ${INTERNAL_ROLE}`);
  return { tenant_id: null, allow_unbound: true };
}

export const catalogHandlers: HandlerTable = {
  queryCatalog: {
    async handle(input, { store }) {
      const { unbound, ...query } = input.query as CatalogQuery & { unbound?: boolean };
      const ctx = catalogContext(principalOf(input), unbound === true);
      return ok(await store.queryCatalog(query, ctx));
    },
  },
  getCatalogCapability: {
    async handle(input, { store }) {
      const ctx = catalogContext(principalOf(input), input.query['unbound'] === true);
      return found(await store.getCapability(input.params['capability_id']!, ctx), 'capability');
    },
  },
};
