import { storeDefect } from '../defect.ts';
import { raisedOnConflict } from '../support/writes.ts';

export default storeDefect({
  name: 'binding-revision-raised',
  clause: 'records-binding-revision',
  does: 'a binding change without a larger policy_revision is stored with the revision raised instead of CONFLICT',
  changes: (inner) => ({
    async putBinding(record) {
      const stored = await inner.getBinding(record.tenant_id, record.capability_id, record.instance_id);
      return raisedOnConflict((raise) =>
        inner.putBinding(
          raise && stored ? { ...record, policy_revision: Math.max(record.policy_revision, stored.policy_revision + 1) } : record,
        ),
      );
    },
  }),
});
