import { RegistryError } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'settle-skip-fence',
  clause: 'settle-fence',
  does: 'a settlement presenting an assignment that differs from the stored one settles the stored one instead of FENCE_LOST',
  changes: (inner) => ({
    async settle(tenantId, actionId, assignment, outcome) {
      try {
        return await inner.settle(tenantId, actionId, assignment, outcome);
      } catch (err) {
        const stored = RegistryError.is(err) && err.code === 'FENCE_LOST' ? await inner.route(tenantId, actionId) : null;
        if (!stored) throw err;
        return inner.settle(tenantId, actionId, stored.assignment, outcome);
      }
    },
  }),
});
