import { defineCase } from '../../harness/define-case.ts';
import { expectEqual } from '../../harness/expect.ts';
import { walkCatalog } from '../../harness/observe.ts';
import { pageLimit, spreadCatalog } from '../../harness/sizes.ts';

const SUFFIXES = ['b', 'B', 'a', 'A', '_x', '0', 'a.b', 'a-b', 'a:b', 'zz', 'Z9', '9Z'];

export default defineCase({
  id: 'pagination/pages-are-in-byte-order',
  clause: 'page-order',
  category: 'pagination',
  flags: ['serial'],
  description: 'catalog pages list capability ids in ascending byte order, across page boundaries',
  async run(ctx) {
    const capabilities = SUFFIXES.map((s) => ctx.build.capability(`cap.${ctx.ids.prefix}.${s}`));
    const { tenant } = await spreadCatalog(ctx, capabilities);
    const expected = capabilities.map((c) => c.id).sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    for (const limit of new Set([pageLimit(ctx.limits, 50), pageLimit(ctx.limits, 5)])) {
      const { pages } = await walkCatalog(ctx.catalogFor(tenant), { limit });
      expectEqual(
        pages.flatMap((p) => p.capabilities.map((d) => d.capability.id)),
        expected,
        `ids of a walk with limit ${limit}`,
      );
    }
  },
});
