import { boundBesideUnbound } from '../../harness/catalog.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'catalog/tenant-claim-wins-over-unbound',
  clause: 'catalog-tenant-precedence',
  category: 'catalog',
  description: 'a token with a tenant claim reads its tenant view even with registry:internal and unbound=true',
  async run(ctx) {
    const { fleet, bound, unbound } = await boundBesideUnbound(ctx);
    const both = ctx.as({ roles: ['registry:internal'], tenant: fleet.tenant });
    const page = expectOk(await both.call('queryCatalog', { query: { text: ctx.ids.prefix, unbound: true } }));
    expectEqual(
      page.capabilities.map((d) => d.capability.id),
      [bound.id],
      'the page shows the tenant view',
    );
    const hidden = await both.call('getCatalogCapability', { params: { capability_id: unbound.id }, query: { unbound: true } });
    expectError(hidden, 'NOT_FOUND', undefined, 'an unbound capability read with a tenant claim');
  },
});
