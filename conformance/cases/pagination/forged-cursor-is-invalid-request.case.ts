import { defineCase } from '../../harness/define-case.ts';
import { spreadCatalog } from '../../harness/sizes.ts';
import { expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'pagination/forged-cursor-is-invalid-request',
  clause: 'page-invalid-cursor',
  category: 'pagination',
  description: 'cursors the registry never issued, without a revision that proves them stale, are 400',
  async run(ctx) {
    const { tenant } = await spreadCatalog(ctx, [ctx.fx.capability(), ctx.fx.capability()]);
    const catalog = ctx.catalogFor(tenant);
    expectOk(await catalog.call('queryCatalog', { query: { limit: 1 } }));
    for (const cursor of ['*', 'not a cursor', '@@@@', '~!~', 'x'.repeat(1025)]) {
      expectError(
        await catalog.call('queryCatalog', { query: { limit: 1, cursor } }),
        'INVALID_REQUEST',
        undefined,
        `cursor ${JSON.stringify(cursor.slice(0, 20))}`,
      );
    }
  },
});
