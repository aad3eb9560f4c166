import { defineCase } from '../../harness/define-case.ts';
import { expectAtLeast, expectAtMost, expectEqual, expectError, expectOk } from '../../harness/expect.ts';
import { defaultPageLimit, pageLimit, spreadCatalog } from '../../harness/sizes.ts';

export default defineCase({
  id: 'pagination/default-limit-is-bounded-by-max-page-size',
  clause: 'page-limit',
  category: 'pagination',
  description: 'without limit a page holds at most min(50, max_page_size); 0 or above max_page_size is 400',
  async run(ctx) {
    const byDefault = defaultPageLimit(ctx.limits);
    // One match more than the default page, so a page that ignored the default would show it.
    const capabilities = Array.from({ length: byDefault + 1 }, (_, i) =>
      ctx.build.capability(ctx.ids.capability(`c${String(i).padStart(2, '0')}`)),
    );
    const { tenant } = await spreadCatalog(ctx, capabilities);
    const catalog = ctx.catalogFor(tenant);
    const first = expectOk(await catalog.call('queryCatalog', { query: {} }));
    expectAtMost(first.capabilities.length, byDefault, 'items on a page without limit');
    // How full a page is stays open ([page-fill]); a page with more to come is never empty.
    expectAtLeast(first.capabilities.length, 1, 'items on a page without limit');
    expectEqual(typeof first.next_cursor, 'string', 'next_cursor of a default page with more matches');
    const some = pageLimit(ctx.limits, 7);
    expectAtMost(
      expectOk(await catalog.call('queryCatalog', { query: { limit: some } })).capabilities.length,
      some,
      `items with limit ${some}`,
    );
    for (const limit of [0, -1, ctx.limits.max_page_size + 1]) {
      expectError(await catalog.call('queryCatalog', { query: { limit } }), 'INVALID_REQUEST', undefined, `limit ${limit}`);
    }
    const max = expectOk(await catalog.call('queryCatalog', { query: { limit: ctx.limits.max_page_size } }));
    expectAtMost(max.capabilities.length, ctx.limits.max_page_size, 'items with limit max_page_size');
  },
});
