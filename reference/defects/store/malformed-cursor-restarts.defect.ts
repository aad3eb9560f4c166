import { RegistryError } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'malformed-cursor-restarts',
  clause: 'page-invalid-cursor',
  does: 'a cursor this registry could not have issued starts the walk over instead of INVALID_REQUEST',
  changes: (inner) => ({
    async queryCatalog(q, ctx) {
      try {
        return await inner.queryCatalog(q, ctx);
      } catch (err) {
        if (!RegistryError.is(err) || err.code !== 'INVALID_REQUEST' || q.cursor === undefined) throw err;
        const { cursor: _forged, ...fresh } = q;
        return inner.queryCatalog(fresh, ctx);
      }
    },
  }),
});
