import { storeDefect } from '../defect.ts';
import { claimApplied } from '../support/writes.ts';

export default storeDefect({
  name: 'rollout-drops-bound-capability',
  clause: 'records-instance-rollout',
  does: 'moving an instance to a version that lacks a bound capability answers applied (leaving the instance where it was) instead of CONFLICT',
  changes: (inner) => ({
    async putInstance(record) {
      const stored = await inner.getInstance(record.id);
      const rollout = stored !== null && stored.version_id !== record.version_id && record.config_revision > stored.config_revision;
      return claimApplied(
        inner,
        () => inner.putInstance(record),
        record,
        ['CONFLICT'],
        () => rollout,
      );
    },
  }),
});
