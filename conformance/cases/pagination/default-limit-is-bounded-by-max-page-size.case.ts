import { canonicalJson } from '../../../contract/canonical-json.js';
import { defineCase } from '../../harness/define-case.ts';
import { expectAtMost, expectEqual, expectError, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'pagination/limit-defaults-to-fifty-and-is-bounded',
  clause: 'page-limit',
  category: 'pagination',
  description: 'limit defaults to 50, a page never holds more, and 0 or above max_page_size is 400',
  async run(ctx) {
    const capabilities = Array.from({ length: 60 }, (_, i) => ctx.build.capability(ctx.ids.capability(`c${String(i).padStart(2, '0')}`)));
    const fleet = await ctx.fx.fleet({ capabilities });
    const catalog = ctx.catalogFor(fleet.tenant);
    const bytes = (n: number) => capabilities.slice(0, n).reduce((sum, c) => sum + Buffer.byteLength(canonicalJson({ capability: c, contract_digest: '', schema_digest: '' })) + 150, 0);
    const first = expectOk(await catalog.call('queryCatalog', { query: {} }));
    expectAtMost(first.capabilities.length, 50, 'items on a page without limit');
    // Only a byte bound smaller than 51 of these definitions may end the default page early.
    if (bytes(51) <= ctx.limits.max_page_bytes) expectEqual(first.capabilities.length, 50, 'items on a page without limit');
    expectEqual(expectOk(await catalog.call('queryCatalog', { query: { limit: 7 } })).capabilities.length, 7, 'items with limit 7');
    for (const limit of [0, -1, ctx.limits.max_page_size + 1]) {
      expectError(await catalog.call('queryCatalog', { query: { limit } }), 'INVALID_REQUEST', undefined, `limit ${limit}`);
    }
    const max = expectOk(await catalog.call('queryCatalog', { query: { limit: ctx.limits.max_page_size } }));
    expectAtMost(max.capabilities.length, ctx.limits.max_page_size, 'items with limit max_page_size');
  },
});
