import { RegistryError } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';
import { atRevision } from '../support/cursors.ts';

export default storeDefect({
  name: 'cursor-skip-revision',
  clause: 'page-stale-cursor',
  does: 'a cursor issued at an older catalog revision continues the walk at the current one instead of STALE_CURSOR',
  changes: (inner) => ({
    async queryCatalog(query, ctx) {
      try {
        return await inner.queryCatalog(query, ctx);
      } catch (err) {
        if (!RegistryError.is(err) || err.code !== 'STALE_CURSOR' || query.cursor === undefined) throw err;
        return inner.queryCatalog({ ...query, cursor: atRevision(query.cursor, await inner.catalogRevision()) }, ctx);
      }
    },
  }),
});
