import { storeDefect } from '../defect.ts';
import { claimApplied } from '../support/writes.ts';

export default storeDefect({
  name: 'version-change-accepted',
  clause: 'records-version-immutable',
  does: 'admitting an existing version id with different fields answers applied (and keeps the stored one) instead of CONFLICT',
  changes: (inner) => ({
    admitVersion: (record) =>
      claimApplied(
        inner,
        () => inner.admitVersion(record),
        { ...record, supply_chain_qualified: true, admitted_at: new Date().toISOString() },
        ['CONFLICT'],
        async () => (await inner.getVersion(record.id)) !== null,
      ),
  }),
});
