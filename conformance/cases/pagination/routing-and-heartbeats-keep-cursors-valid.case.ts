import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError, expectOk, fail } from '../../harness/expect.ts';
import { HarnessError } from '../../harness/failure.ts';
import { spreadCatalog } from '../../harness/sizes.ts';

export default defineCase({
  id: 'pagination/routing-and-heartbeats-keep-cursors-valid',
  clause: 'page-stale-cursor',
  category: 'pagination',
  flags: ['serial'],
  description: 'replica churn, routing and settlement never make a cursor stale',
  async run(ctx) {
    const { fleets } = await spreadCatalog(ctx, [ctx.fx.capability(), ctx.fx.capability()], { capacity: 20 });
    const fleet = fleets[0]!;
    const catalog = ctx.catalogFor(fleet.tenant);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const first = expectOk(await catalog.call('queryCatalog', { query: { limit: 1 } }));
      await ctx.fx.health(fleet.replicas[0]!.id, { capacity: 20 + attempt });
      await ctx.fx.replica(fleet.instance.id, fleet.version.id);
      await ctx.fx.settle(await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action()), 'outcome_unknown');
      const next = await catalog.call('queryCatalog', { query: { limit: 1, cursor: first.next_cursor! } });
      if (next.status === 200) return expectEqual(expectOk(next).catalog_revision, first.catalog_revision, 'revision of the second page');
      expectError(next, 'STALE_CURSOR');
      // Stale is right only if someone else changed the catalog meanwhile.
      const now = expectOk(await catalog.call('queryCatalog', { query: { limit: 1 } }));
      if (now.catalog_revision === first.catalog_revision)
        fail('STALE_CURSOR although the catalog revision did not change', { exchange: next.exchange });
    }
    throw new HarnessError('the catalog revision changed during each of 5 attempts; run this case against a quieter target');
  },
});
