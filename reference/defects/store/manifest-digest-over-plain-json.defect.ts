import { sha256Hex } from '../../../contract/digest.ts';
import { admissionRejected } from '../../../contract/registry-error.ts';
import { manifestFacts } from '../../domain/digest.ts';
import { storeDefect } from '../defect.ts';

/**
 * The digest a manifest must carry is that of JSON.stringify of the manifest
 * as it arrived, members in their order, not of its canonical JSON: a digest
 * of the canonical form is refused unless the two agree.
 */
export default storeDefect({
  name: 'manifest-digest-over-plain-json',
  clause: 'digest-canonical-json',
  does: 'manifest digests are checked against JSON.stringify of the manifest as sent instead of its canonical JSON',
  changes: (inner) => ({
    async admitVersion(record) {
      const plain = `sha256:${sha256Hex(JSON.stringify(record.manifest))}`;
      if (record.manifest_digest !== plain) throw admissionRejected('manifest_digest does not match the manifest');
      return inner.admitVersion({ ...record, manifest_digest: manifestFacts(record.manifest).digest });
    },
  }),
});
