import type { WriteResult } from '../../../contract/records.ts';
import { storeDefect } from '../defect.ts';

const applied = async <R>(write: Promise<WriteResult<R>>): Promise<WriteResult<R>> => {
  const result = await write;
  return result.outcome === 'unchanged' ? { ...result, outcome: 'applied' } : result;
};

export default storeDefect({
  name: 'identical-put-is-applied',
  clause: 'records-identical-put',
  does: 'a write identical to the stored record answers applied instead of unchanged',
  changes: (inner) => ({
    putConnectorType: (r) => applied(inner.putConnectorType(r)),
    admitVersion: (r) => applied(inner.admitVersion(r)),
    putInstance: (r) => applied(inner.putInstance(r)),
    putBinding: (r) => applied(inner.putBinding(r)),
    putAdmissionPolicy: (r) => applied(inner.putAdmissionPolicy(r)),
    provisionReplica: (r) => applied(inner.provisionReplica(r)),
  }),
});
