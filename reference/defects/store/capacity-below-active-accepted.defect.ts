import { storeDefect } from '../defect.ts';
import { claimApplied } from '../support/writes.ts';

export default storeDefect({
  name: 'capacity-below-active-accepted',
  clause: 'records-replica-capacity',
  does: "a health report whose capacity is below the replica's active assignments answers applied (changing nothing) instead of CONFLICT",
  changes: (inner) => ({
    async reportHealth(id, report) {
      const stored = await inner.getReplica(id);
      const below = stored !== null && report.capacity < stored.active_assignments && report.health_revision > stored.health_revision;
      return claimApplied(
        inner,
        () => inner.reportHealth(id, report),
        { ...stored!, ...report },
        ['CONFLICT'],
        () => below,
      );
    },
  }),
});
