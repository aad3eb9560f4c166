import { defineCase } from '../../harness/define-case.ts';
import { expectEqual } from '../../harness/expect.ts';
import { walkCatalog } from '../../harness/observe.ts';

const SUFFIXES = ['b', 'B', 'a', 'A', '_x', '0', 'a.b', 'a-b', 'a:b', 'zz', 'Z9', '9Z'];

export default defineCase({
  id: 'pagination/pages-are-in-byte-order',
  clause: 'page-order',
  category: 'pagination',
  flags: ['serial'],
  description: 'catalog pages list capability ids in ascending byte order, across page boundaries',
  async run(ctx) {
    const capabilities = SUFFIXES.map((s) => ctx.build.capability(`cap.${ctx.ids.prefix}.${s}`));
    const fleet = await ctx.fx.fleet({ capabilities });
    const expected = capabilities.map((c) => c.id).sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    for (const limit of [50, 5]) {
      const { pages } = await walkCatalog(ctx.catalogFor(fleet.tenant), { limit });
      expectEqual(pages.flatMap((p) => p.capabilities.map((d) => d.capability.id)), expected, `ids of a walk with limit ${limit}`);
    }
  },
});
