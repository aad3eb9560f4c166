import { RegistryError } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';
import { parseCursor } from '../support/cursors.ts';

/** A cursor whose id part was cut off is read as "from the start". */
export default storeDefect({
  name: 'empty-id-cursor-restarts',
  clause: 'page-invalid-cursor',
  does: 'a cursor of the current revision with its id part empty starts the walk over instead of INVALID_REQUEST',
  changes: (inner) => ({
    async queryCatalog(q, ctx) {
      try {
        return await inner.queryCatalog(q, ctx);
      } catch (err) {
        const c = q.cursor === undefined ? null : parseCursor(q.cursor);
        if (!RegistryError.is(err) || err.code !== 'INVALID_REQUEST' || c?.lastId !== '') throw err;
        const { cursor: _cut, ...fresh } = q;
        return inner.queryCatalog(fresh, ctx);
      }
    },
  }),
});
