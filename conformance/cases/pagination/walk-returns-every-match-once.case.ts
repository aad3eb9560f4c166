import { defineCase } from '../../harness/define-case.ts';
import { expectEqual } from '../../harness/expect.ts';
import { walkCatalog } from '../../harness/observe.ts';
import { spreadCatalog, walkLimits } from '../../harness/sizes.ts';

export default defineCase({
  id: 'pagination/walk-returns-every-match-once',
  clause: 'page-cursor',
  category: 'pagination',
  flags: ['serial'],
  description: 'following next_cursor returns every match once, in order, and the last page has next_cursor null',
  async run(ctx) {
    const capabilities = Array.from({ length: 9 }, () => ctx.fx.capability());
    const { tenant } = await spreadCatalog(ctx, capabilities);
    const expected = capabilities.map((c) => c.id).sort();
    for (const limit of walkLimits(ctx.limits, capabilities.length)) {
      const { pages } = await walkCatalog(ctx.catalogFor(tenant), { limit });
      expectEqual(
        pages.flatMap((p) => p.capabilities.map((d) => d.capability.id)),
        expected,
        `ids of a walk with limit ${limit}`,
      );
      expectEqual(pages.at(-1)!.next_cursor, null, `next_cursor of the last page with limit ${limit}`);
      for (const page of pages.slice(0, -1))
        expectEqual(typeof page.next_cursor, 'string', `next_cursor of an inner page with limit ${limit}`);
    }
  },
});
