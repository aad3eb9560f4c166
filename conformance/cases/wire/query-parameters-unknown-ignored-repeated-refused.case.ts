import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'wire/query-parameters-unknown-ignored-repeated-refused',
  clause: 'wire-query',
  category: 'wire',
  description: 'an undeclared query parameter is ignored; a declared one given twice is 400',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const catalog = ctx.catalogFor(fleet.tenant);
    const plain = await catalog.raw('GET', '/v1/catalog?limit=1');
    const extra = await catalog.raw('GET', '/v1/catalog?limit=1&sort=desc&x-debug=1');
    expectEqual(plain.status, 200, 'a plain catalog read', plain.exchange);
    expectEqual(extra.status, 200, 'a catalog read with undeclared parameters', extra.exchange);
    // Other cases may advance the catalog revision in between; this tenant's items are the case's own.
    const items = (reply: typeof plain) => {
      const page = reply.json as { capabilities: unknown; total: unknown };
      return { capabilities: page.capabilities, total: page.total };
    };
    expectEqual(items(extra), items(plain), 'undeclared parameters change nothing', extra.exchange);
    expectError(await catalog.raw('GET', '/v1/catalog?limit=1&limit=2'), 'INVALID_REQUEST', undefined, 'limit given twice');
    expectError(
      await catalog.raw('GET', `/v1/catalog?capability_id=${encodeURIComponent(fleet.capability)}&capability_id=x`),
      'INVALID_REQUEST',
      undefined,
      'capability_id given twice',
    );
  },
});
