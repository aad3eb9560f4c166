import { storeDefect } from '../defect.ts';
import { refusedWith } from '../support/writes.ts';

/** The type is enabled for the admission and disabled again, so the version is really stored. */
export default storeDefect({
  name: 'version-of-disabled-type-admitted',
  clause: 'records-version-type-exists',
  does: 'a version of a disabled connector type is admitted instead of ADMISSION_REJECTED',
  changes: (inner) => ({
    async admitVersion(record) {
      try {
        return await inner.admitVersion(record);
      } catch (err) {
        const type = refusedWith(err, 'ADMISSION_REJECTED') ? await inner.getConnectorType(record.connector_type_id) : null;
        if (!type || type.enabled) throw err;
        await inner.setConnectorTypeEnabled(type.id, true);
        try {
          return await inner.admitVersion(record);
        } finally {
          await inner.setConnectorTypeEnabled(type.id, false);
        }
      }
    },
  }),
});
