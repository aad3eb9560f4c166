import { storeDefect } from '../defect.ts';
import { claimApplied } from '../support/writes.ts';

export default storeDefect({
  name: 'revoked-version-revivable',
  clause: 'records-version-status',
  does: 'changing the status of a revoked version answers applied (the version staying revoked) instead of CONFLICT',
  changes: (inner) => ({
    async setVersionStatus(id, status) {
      const stored = await inner.getVersion(id);
      return claimApplied(
        inner,
        () => inner.setVersionStatus(id, status),
        { ...stored!, status },
        ['CONFLICT'],
        () => stored?.status === 'revoked',
      );
    },
  }),
});
