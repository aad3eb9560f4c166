import { admissionRejected } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'manifest-at-the-limit-refused',
  clause: 'limits-declared',
  does: 'a manifest with exactly max_capabilities_per_version capabilities, which the limit allows, is ADMISSION_REJECTED',
  changes: (inner) => ({
    async admitVersion(record) {
      if (record.manifest.capabilities.length >= inner.limits.max_capabilities_per_version)
        throw admissionRejected('too many capabilities');
      return inner.admitVersion(record);
    },
  }),
});
