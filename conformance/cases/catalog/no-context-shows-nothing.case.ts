import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'catalog/no-context-shows-nothing',
  clause: 'catalog-no-context',
  category: 'catalog',
  description: 'without a tenant and without internal unbound access, pages are empty and reads are 404',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const callers = [ctx.as({ roles: ['registry:reader', 'registry:admin'] }), ctx.as({ roles: ['registry:internal'] })];
    for (const client of callers) {
      const page = expectOk(await client.call('queryCatalog', { query: { capability_id: fleet.capability } }));
      expectEqual([page.total, page.capabilities.length], [0, 0], 'a filtered page without tenant context');
      const all = expectOk(await client.call('queryCatalog', { query: {} }));
      expectEqual([all.total, all.capabilities.length, all.next_cursor], [0, 0, null], 'an unfiltered page without tenant context');
      expectError(
        await client.call('getCatalogCapability', { params: { capability_id: fleet.capability } }),
        'NOT_FOUND',
        undefined,
        'single read',
      );
    }
  },
});
