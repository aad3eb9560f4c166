import { defineCase } from '../../harness/define-case.ts';
import { pageLimit, spreadCatalog } from '../../harness/sizes.ts';
import { expectError, expectOk, expectTrue } from '../../harness/expect.ts';

export default defineCase({
  id: 'pagination/cursor-after-catalog-change-is-stale',
  clause: 'page-stale-cursor',
  category: 'pagination',
  description: 'a cursor presented after any catalog change is 409 STALE_CURSOR, whatever the other filters',
  async run(ctx) {
    const { tenant, fleets } = await spreadCatalog(ctx, [ctx.fx.capability(), ctx.fx.capability(), ctx.fx.capability()]);
    const catalog = ctx.catalogFor(tenant);
    const first = expectOk(await catalog.call('queryCatalog', { query: { limit: 1 } }));
    expectTrue(first.next_cursor !== null, 'the first of three pages has a cursor');
    const b = fleets[0]!.binding;
    const change = await ctx.admin.call('putBinding', {
      params: { tenant_id: b.tenant_id, capability_id: b.capability_id, instance_id: b.instance_id },
      body: { ...b, priority: 5, policy_revision: b.policy_revision + 1 },
    });
    expectTrue(expectOk(change).catalog_revision > first.catalog_revision, 'the binding change advanced the revision', change.exchange);
    expectError(
      await catalog.call('queryCatalog', { query: { limit: 1, cursor: first.next_cursor! } }),
      'STALE_CURSOR',
      undefined,
      'the same query',
    );
    expectError(
      await catalog.call('queryCatalog', { query: { limit: pageLimit(ctx.limits, 2), cursor: first.next_cursor!, text: 'zz' } }),
      'STALE_CURSOR',
      undefined,
      'other filters',
    );
  },
});
