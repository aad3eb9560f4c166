import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectOk, expectTrue } from '../../harness/expect.ts';
import { NotProvocable } from '../../harness/failure.ts';
import { spreadCatalog } from '../../harness/sizes.ts';

/** `text` without its one occurrence of `id`, or null when `id` is not in it exactly once. */
function cutOnce(text: string, id: string): string | null {
  const at = text.indexOf(id);
  return at < 0 || text.indexOf(id, at + 1) >= 0 ? null : text.slice(0, at) + text.slice(at + id.length);
}

/** The cursor with its id part removed, where the cursor shows it (decision 36), else null. */
function withoutIdPart(cursor: string, lastId: string): string | null {
  const plain = cutOnce(cursor, lastId);
  if (plain !== null) return plain;
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  if (Buffer.from(decoded, 'utf8').toString('base64url') !== cursor.replace(/=+$/, '')) return null;
  const cut = cutOnce(decoded, lastId);
  return cut === null ? null : Buffer.from(cut, 'utf8').toString('base64url');
}

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
    const cut = withoutIdPart(cursor!, lastId!);
    if (cut === null)
      throw new NotProvocable('the cursor shows no id part: the last id is not in it, as text or in base64url, exactly once');
    expectError(await catalog.call('queryCatalog', { query: { limit: 1, cursor: cut } }), 'INVALID_REQUEST', undefined, `cursor ${cut}`);
  },
});
