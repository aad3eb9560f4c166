import type { CapabilityPage } from '../../../contract/records.ts';
import { issuedCursor } from '../../harness/cursor-parts.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOneOf } from '../../harness/expect.ts';

/** Byte order of ids, the order of a walk ([page-order]). */
const sortsAfter = (id: string, than: string) => Buffer.compare(Buffer.from(id, 'utf8'), Buffer.from(than, 'utf8')) > 0;

export default defineCase({
  id: 'pagination/cursor-with-bytes-appended-never-restarts',
  clause: 'page-invalid-cursor',
  category: 'pagination',
  // Alone, so the catalog is still at the revision the cursor was issued at.
  flags: ['serial'],
  description: 'an issued cursor with bytes appended is refused, or continues after its last id; never a fresh start',
  async run(ctx) {
    const { catalog, cursor, lastId } = await issuedCursor(ctx, 3);
    // Decision 36: malformed, or read as the cursor of a longer id, which sorts after the last id; never the walk from its start.
    for (const extra of ['~', '0', 'A', '%']) {
      const reply = await catalog.call('queryCatalog', { query: { limit: 1, cursor: `${cursor}${extra}` } });
      const what = `the cursor with ${JSON.stringify(extra)} appended`;
      if (reply.status !== 200) {
        expectOneOf(reply, ['INVALID_REQUEST', 'STALE_CURSOR'], what);
        continue;
      }
      const ids = (reply.json as CapabilityPage).capabilities.map((c) => c.capability.id);
      expectEqual(
        ids.filter((id) => !sortsAfter(id, lastId)),
        [],
        `${what}: definitions at or before the last id ${lastId}`,
        reply.exchange,
      );
    }
  },
});
