import { storeDefect } from '../defect.ts';

/** The binding is stored and the revision moves, but the answer reports the revision from before the write. */
export default storeDefect({
  name: 'revision-skips-binding-writes',
  clause: 'revision-advances',
  does: 'an applied binding write reports the catalog revision from before it, as if it had not advanced it',
  changes: (inner) => ({
    async putBinding(record) {
      const before = await inner.catalogRevision();
      const result = await inner.putBinding(record);
      return result.outcome === 'applied' ? { ...result, catalog_revision: before } : result;
    },
  }),
});
