import { storeDefect } from '../defect.ts';
import { claimApplied } from '../support/writes.ts';

export default storeDefect({
  name: 'duplicate-artifact-accepted',
  clause: 'records-version-unique',
  does: "a new version repeating another version's artifact digest or version string answers applied (storing nothing) instead of CONFLICT",
  changes: (inner) => ({
    admitVersion: (record) =>
      claimApplied(
        inner,
        () => inner.admitVersion(record),
        { ...record, supply_chain_qualified: true, admitted_at: new Date().toISOString() },
        ['CONFLICT'],
        async () => (await inner.getVersion(record.id)) === null,
      ),
  }),
});
