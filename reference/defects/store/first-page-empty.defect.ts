import { storeDefect } from '../defect.ts';
import { cursorAt } from '../support/cursors.ts';

/** The first page of a walk is empty, its cursor pointing before every id, as a registry that pages by a lower bound can answer. */
export default storeDefect({
  name: 'first-page-empty',
  clause: 'page-fill',
  does: 'the first page of every non-empty walk holds no definition and carries a cursor',
  changes: (inner) => ({
    async queryCatalog(q, ctx) {
      const page = await inner.queryCatalog(q, ctx);
      if (q.cursor !== undefined || page.capabilities.length === 0) return page;
      return { ...page, capabilities: [], next_cursor: cursorAt(page.catalog_revision, '0', page.next_cursor) };
    },
  }),
});
