import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';
import { NotProvocable } from '../../harness/failure.ts';
import { issuedCursor, withPartCut } from '../../harness/cursor-parts.ts';

export default defineCase({
  id: 'pagination/cursor-cut-of-its-id-is-invalid-request',
  clause: 'page-invalid-cursor',
  category: 'pagination',
  // Alone, so the revision the cursor carries is still the catalog's when the cut cursor is sent.
  flags: ['serial'],
  description: 'an issued cursor with its id part cut out is 400 while its revision is current, never a fresh start',
  async run(ctx) {
    const { catalog, cursor, lastId } = await issuedCursor(ctx, 2);
    const cut = withPartCut(cursor, lastId);
    if (cut === null)
      throw new NotProvocable('the cursor shows no id part: the last id is not in it, as text or in base64url, exactly once');
    expectError(await catalog.call('queryCatalog', { query: { limit: 1, cursor: cut } }), 'INVALID_REQUEST', undefined, `cursor ${cut}`);
  },
});
