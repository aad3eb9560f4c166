import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectOk, expectTrue } from '../../harness/expect.ts';
import { NotProvocable } from '../../harness/failure.ts';
import { spreadCatalog } from '../../harness/sizes.ts';
import { withPartCut } from '../../harness/cursor-parts.ts';

export default defineCase({
  id: 'pagination/cursor-cut-of-its-id-is-invalid-request',
  clause: 'page-invalid-cursor',
  category: 'pagination',
  // Alone, so the revision the cursor carries is still the catalog's when the cut cursor is sent.
  flags: ['serial'],
  description: 'an issued cursor with its id part cut out is 400 while its revision is current, never a fresh start',
  async run(ctx) {
    const { tenant } = await spreadCatalog(ctx, [ctx.fx.capability(), ctx.fx.capability()]);
    const catalog = ctx.catalogFor(tenant);
    const first = expectOk(await catalog.call('queryCatalog', { query: { limit: 1 } }));
    const cursor = first.next_cursor;
    const lastId = first.capabilities.at(-1)?.capability.id;
    expectTrue(cursor !== null && lastId !== undefined, 'the first of two pages carries a definition and a cursor');
    const cut = withPartCut(cursor!, lastId!);
    if (cut === null)
      throw new NotProvocable('the cursor shows no id part: the last id is not in it, as text or in base64url, exactly once');
    expectError(await catalog.call('queryCatalog', { query: { limit: 1, cursor: cut } }), 'INVALID_REQUEST', undefined, `cursor ${cut}`);
  },
});
