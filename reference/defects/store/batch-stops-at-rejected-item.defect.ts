import type { BatchItemResult } from '../../../contract/records.ts';
import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'batch-stops-at-rejected-item',
  clause: 'batch-items',
  does: 'a batch stops at its first rejected item: the items after it are rejected unapplied',
  changes: (inner) => ({
    async applyBatch(items) {
      const results: BatchItemResult[] = [];
      let catalogRevision = await inner.catalogRevision();
      for (const [index, item] of items.entries()) {
        if (results.some((r) => r.outcome === 'rejected')) {
          results.push({ index, outcome: 'rejected', error: { code: 'CONFLICT', message: 'an earlier item was rejected' } });
          continue;
        }
        const one = await inner.applyBatch([item]);
        catalogRevision = one.catalog_revision;
        results.push({ ...one.results[0]!, index });
      }
      return { catalog_revision: catalogRevision, results };
    },
  }),
});
