import { storeDefect } from '../defect.ts';
import { raisedOnConflict } from '../support/writes.ts';

export default storeDefect({
  name: 'policy-revision-raised',
  clause: 'records-policy-revision',
  does: 'an admission policy change without a larger revision is stored with the revision raised instead of CONFLICT',
  changes: (inner) => ({
    async putAdmissionPolicy(record) {
      const stored = await inner.getAdmissionPolicy(record.policy_ref);
      return raisedOnConflict((raise) =>
        inner.putAdmissionPolicy(raise && stored ? { ...record, revision: Math.max(record.revision, stored.revision + 1) } : record),
      );
    },
  }),
});
