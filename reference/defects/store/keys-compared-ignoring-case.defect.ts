import { storeDefect } from '../defect.ts';
import { foldedRead } from '../support/folded-keys.ts';

export default storeDefect({
  name: 'keys-compared-ignoring-case',
  clause: 'records-reads',
  does: 'a key read with its letters in another case reads the record of the stored key instead of 404',
  changes: (inner) => ({
    getConnectorType: foldedRead((k) => inner.getConnectorType(k)),
    getVersion: foldedRead((k) => inner.getVersion(k)),
    getInstance: foldedRead((k) => inner.getInstance(k)),
    getReplica: foldedRead((k) => inner.getReplica(k)),
    getAdmissionPolicy: foldedRead((k) => inner.getAdmissionPolicy(k)),
  }),
});
