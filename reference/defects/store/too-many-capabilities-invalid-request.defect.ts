import { invalid } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'too-many-capabilities-invalid-request',
  clause: 'records-version-limits',
  does: 'a manifest with more capabilities than max_capabilities_per_version is INVALID_REQUEST instead of ADMISSION_REJECTED',
  changes: (inner) => ({
    async admitVersion(record) {
      if (record.manifest.capabilities.length > inner.limits.max_capabilities_per_version) throw invalid('too many capabilities');
      return inner.admitVersion(record);
    },
  }),
});
