import { admissionRejected } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';

const repeats = (xs: readonly string[]) => new Set(xs).size !== xs.length;

export default storeDefect({
  name: 'manifest-repeats-admission-rejected',
  clause: 'records-version-manifest-shape',
  does: 'a manifest with no profile, a repeated profile or a repeated capability is ADMISSION_REJECTED instead of INVALID_REQUEST',
  changes: (inner) => ({
    async admitVersion(record) {
      const m = record.manifest;
      if (m.profiles.length === 0 || repeats(m.profiles) || repeats(m.capabilities.map((c) => c.id)))
        throw admissionRejected('the manifest does not qualify');
      return inner.admitVersion(record);
    },
  }),
});
