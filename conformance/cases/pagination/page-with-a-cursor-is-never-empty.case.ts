import { defineCase } from '../../harness/define-case.ts';
import { expectAtLeast, expectAtMost, expectEqual } from '../../harness/expect.ts';
import { walkCatalog } from '../../harness/observe.ts';
import { spreadCatalog, walkLimits } from '../../harness/sizes.ts';

export default defineCase({
  id: 'pagination/page-with-a-cursor-is-never-empty',
  clause: 'page-fill',
  category: 'pagination',
  flags: ['serial'],
  description: 'every page that carries next_cursor holds at least one definition, so every walk ends',
  async run(ctx) {
    const capabilities = Array.from({ length: 5 }, () => ctx.fx.capability());
    const { tenant } = await spreadCatalog(ctx, capabilities);
    for (const limit of walkLimits(ctx.limits, capabilities.length)) {
      const { pages } = await walkCatalog(ctx.catalogFor(tenant), { limit });
      // How full each page is stays open; never fuller than its limit, never empty before the end.
      for (const [i, page] of pages.slice(0, -1).entries())
        expectAtLeast(page.capabilities.length, 1, `definitions on page ${i + 1} of a walk with limit ${limit}`);
      for (const page of pages) expectAtMost(page.capabilities.length, limit, `definitions on a page with limit ${limit}`);
      expectEqual(pages.flatMap((p) => p.capabilities).length, capabilities.length, `definitions over a walk with limit ${limit}`);
    }
  },
});
