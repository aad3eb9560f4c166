import { storeDefect } from '../defect.ts';
import { claimApplied } from '../support/writes.ts';

export default storeDefect({
  name: 'instance-keys-change-accepted',
  clause: 'records-instance-keys',
  does: "a put that changes an instance's connector type or tenant answers applied (keeping the stored keys) instead of CONFLICT",
  changes: (inner) => ({
    async putInstance(record) {
      const stored = await inner.getInstance(record.id);
      const keysChanged =
        stored !== null && (stored.tenant_id !== record.tenant_id || stored.connector_type_id !== record.connector_type_id);
      return claimApplied(
        inner,
        () => inner.putInstance(record),
        record,
        ['CONFLICT', 'INVALID_REQUEST'],
        () => keysChanged,
      );
    },
  }),
});
