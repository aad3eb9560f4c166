import { manifestFacts } from '../../domain/digest.ts';
import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'manifest-digest-unchecked',
  clause: 'records-version-manifest-digest',
  does: 'a manifest digest that does not match the manifest is replaced by the right one instead of ADMISSION_REJECTED',
  changes: (inner) => ({
    admitVersion: (record) => inner.admitVersion({ ...record, manifest_digest: manifestFacts(record.manifest).digest }),
  }),
});
