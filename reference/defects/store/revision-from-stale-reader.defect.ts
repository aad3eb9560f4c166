import { storeDefect } from '../defect.ts';

/** Reads are served alternately by a reader that lags one write behind, as a stale replica of a database would. */
export default storeDefect({
  name: 'revision-from-stale-reader',
  clause: 'revision-monotonic',
  does: 'every other catalog read reports the revision before the latest change, so the revision a client sees goes back',
  changes: (inner) => {
    let reads = 0;
    let previous = 0;
    let latest = 0;
    const seen = async (revision: number) => {
      if (revision !== latest) [previous, latest] = [latest, revision];
      return reads++ % 2 === 1 ? previous : revision;
    };
    return {
      queryCatalog: async (q, ctx) => {
        const page = await inner.queryCatalog(q, ctx);
        return { ...page, catalog_revision: await seen(page.catalog_revision) };
      },
      getCapability: async (id, ctx) => {
        const found = await inner.getCapability(id, ctx);
        return found && { ...found, catalog_revision: await seen(found.catalog_revision) };
      },
    };
  },
});
