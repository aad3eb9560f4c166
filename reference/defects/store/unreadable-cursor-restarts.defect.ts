import { RegistryError } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';
import { parseCursor } from '../support/cursors.ts';

/** A cursor that reads as `revision:id` but that the registry refuses (an id it never issued) starts the walk over. */
export default storeDefect({
  name: 'unreadable-cursor-restarts',
  clause: 'page-invalid-cursor',
  does: 'a cursor with bytes after an issued one, which the registry cannot read, starts the walk over instead of INVALID_REQUEST',
  changes: (inner) => ({
    async queryCatalog(query, ctx) {
      try {
        return await inner.queryCatalog(query, ctx);
      } catch (err) {
        const c = query.cursor === undefined ? null : parseCursor(query.cursor);
        if (!RegistryError.is(err) || err.code !== 'INVALID_REQUEST' || c === null || c.lastId === '') throw err;
        const { cursor: _unread, ...fresh } = query;
        return inner.queryCatalog(fresh, ctx);
      }
    },
  }),
});
