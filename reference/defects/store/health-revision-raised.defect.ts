import { storeDefect } from '../defect.ts';
import { refusedWith } from '../support/writes.ts';

export default storeDefect({
  name: 'health-revision-raised',
  clause: 'records-replica-health',
  does: 'a health report that changes state without a larger health_revision is applied with the revision raised instead of CONFLICT',
  changes: (inner) => ({
    async reportHealth(id, report) {
      try {
        return await inner.reportHealth(id, report);
      } catch (err) {
        const stored = refusedWith(err, 'CONFLICT') ? await inner.getReplica(id) : null;
        if (!stored || report.capacity < stored.active_assignments) throw err;
        return inner.reportHealth(id, { ...report, health_revision: Math.max(report.health_revision, stored.health_revision + 1) });
      }
    },
  }),
});
