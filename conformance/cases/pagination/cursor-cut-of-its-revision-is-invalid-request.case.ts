import { issuedCursor, withPartCut } from '../../harness/cursor-parts.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';
import { NotProvocable } from '../../harness/failure.ts';

export default defineCase({
  id: 'pagination/cursor-cut-of-its-revision-is-invalid-request',
  clause: 'page-invalid-cursor',
  category: 'pagination',
  // Alone, so the catalog is still at the revision the cursor was issued at.
  flags: ['serial'],
  description: 'an issued cursor with its revision part cut out is 400, never read as of the current revision',
  async run(ctx) {
    const { catalog, first, cursor, lastId } = await issuedCursor(ctx, 2);
    // Without a revision part nothing proves the cursor stale, so the cursor is malformed ([page-invalid-cursor]).
    const cut = withPartCut(cursor, String(first.catalog_revision), lastId);
    if (cut === null)
      throw new NotProvocable(
        `the cursor shows no revision part: revision ${first.catalog_revision} is not in it outside the last id, as text or in base64url, exactly once`,
      );
    expectError(await catalog.call('queryCatalog', { query: { limit: 1, cursor: cut } }), 'INVALID_REQUEST', undefined, `cursor ${cut}`);
  },
});
