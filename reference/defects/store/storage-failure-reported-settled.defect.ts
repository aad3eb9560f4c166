import { storeDefect } from '../defect.ts';
import { refusedWith } from '../support/writes.ts';

export default storeDefect({
  name: 'storage-failure-reported-settled',
  clause: 'failure-storage',
  does: 'a settlement whose storage failed is answered as released',
  changes: (inner) => ({
    async settle(tenantId, actionId, assignment, outcome) {
      try {
        return await inner.settle(tenantId, actionId, assignment, outcome);
      } catch (err) {
        if (refusedWith(err, 'STORAGE_UNAVAILABLE')) return { action_id: actionId, released: true, last_settlement: outcome };
        throw err;
      }
    },
  }),
});
