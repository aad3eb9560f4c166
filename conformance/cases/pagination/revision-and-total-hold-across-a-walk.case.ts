import { defineCase } from '../../harness/define-case.ts';
import { expectAtLeast, expectEqual } from '../../harness/expect.ts';
import { walkCatalog } from '../../harness/observe.ts';
import { pageLimit, spreadCatalog } from '../../harness/sizes.ts';

export default defineCase({
  id: 'pagination/revision-and-total-hold-across-a-walk',
  clause: 'page-revision',
  category: 'pagination',
  flags: ['serial'],
  description: 'every page of a walk carries the same revision and the total of all matches',
  async run(ctx) {
    const capabilities = Array.from({ length: 11 }, () => ctx.fx.capability());
    const { tenant } = await spreadCatalog(ctx, capabilities);
    for (const query of [{ limit: pageLimit(ctx.limits, 3) }, { limit: pageLimit(ctx.limits, 2), text: ctx.ids.prefix }]) {
      const { pages } = await walkCatalog(ctx.catalogFor(tenant), query);
      // A page may end before its limit ([page-fill]), never after it.
      expectAtLeast(pages.length, Math.ceil(11 / query.limit), `pages with limit ${query.limit}`);
      for (const [i, page] of pages.entries()) {
        expectEqual(page.catalog_revision, pages[0]!.catalog_revision, `revision of page ${i + 1}`);
        expectEqual(page.total, 11, `total on page ${i + 1}`);
      }
    }
  },
});
