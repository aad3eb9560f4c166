import type { WriteResult } from '../../../contract/records.ts';
import { RegistryError } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';
import { revisionBumper } from '../support/revision-bump.ts';

export default storeDefect({
  name: 'refused-write-moves-revision',
  clause: 'error-changes-nothing',
  does: 'a catalog write refused by a rule of the registry still advances the catalog revision',
  changes: (inner) => {
    const bump = revisionBumper(inner, 'refused-write-moves-revision');
    const refusedThenBumped = async <R>(write: Promise<WriteResult<R>>) => {
      try {
        return await write;
      } catch (err) {
        if (RegistryError.is(err) && err.code !== 'STORAGE_UNAVAILABLE') await bump();
        throw err;
      }
    };
    return {
      putConnectorType: (r) => refusedThenBumped(inner.putConnectorType(r)),
      admitVersion: (r) => refusedThenBumped(inner.admitVersion(r)),
      setVersionStatus: (id, s) => refusedThenBumped(inner.setVersionStatus(id, s)),
      putInstance: (r) => refusedThenBumped(inner.putInstance(r)),
      putBinding: (r) => refusedThenBumped(inner.putBinding(r)),
      putAdmissionPolicy: (r) => refusedThenBumped(inner.putAdmissionPolicy(r)),
    };
  },
});
