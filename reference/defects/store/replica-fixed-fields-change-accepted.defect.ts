import { storeDefect } from '../defect.ts';
import { claimApplied } from '../support/writes.ts';

export default storeDefect({
  name: 'replica-fixed-fields-change-accepted',
  clause: 'records-replica-provision',
  does: 'provisioning an existing replica with a different endpoint or other fixed field answers applied (keeping the stored one) instead of CONFLICT',
  changes: (inner) => ({
    async provisionReplica(record) {
      const stored = await inner.getReplica(record.id);
      const fixedChanged =
        stored !== null &&
        (stored.endpoint !== record.endpoint || stored.peer_did !== record.peer_did || stored.instance_id !== record.instance_id);
      const view = {
        ...record,
        active_assignments: stored?.active_assignments ?? 0,
        circuit: stored?.circuit ?? { state: 'closed' as const, consecutive_failures: 0, open_until: null },
      };
      return claimApplied(
        inner,
        () => inner.provisionReplica(record),
        view,
        ['CONFLICT'],
        () => fixedChanged,
      );
    },
  }),
});
