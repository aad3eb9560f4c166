import { storeDefect } from '../defect.ts';
import { raisedOnConflict } from '../support/writes.ts';

export default storeDefect({
  name: 'instance-revision-raised',
  clause: 'records-instance-revision',
  does: 'an instance change without a larger config_revision is stored with the revision raised instead of CONFLICT',
  changes: (inner) => ({
    async putInstance(record) {
      const stored = await inner.getInstance(record.id);
      return raisedOnConflict((raise) =>
        inner.putInstance(
          raise && stored ? { ...record, config_revision: Math.max(record.config_revision, stored.config_revision + 1) } : record,
        ),
      );
    },
  }),
});
