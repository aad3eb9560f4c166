import { fenceLost } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';
import { refusedWith } from '../support/writes.ts';

export default storeDefect({
  name: 'unknown-settle-is-fence-lost',
  clause: 'settle-unknown-action',
  does: "settling an action that was never routed, or another tenant's, is FENCE_LOST instead of NOT_FOUND",
  changes: (inner) => ({
    async settle(tenantId, actionId, assignment, outcome) {
      try {
        return await inner.settle(tenantId, actionId, assignment, outcome);
      } catch (err) {
        if (refusedWith(err, 'NOT_FOUND')) throw fenceLost('no such assignment');
        throw err;
      }
    },
  }),
});
