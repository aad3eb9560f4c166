import { replicaUnavailable } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';
import { refusedWith } from '../support/writes.ts';

export default storeDefect({
  name: 'no-binding-as-replica-unavailable',
  clause: 'route-binding-unavailable',
  does: 'a new action with no usable binding is REPLICA_UNAVAILABLE instead of BINDING_UNAVAILABLE',
  changes: (inner) => ({
    async resolve(tenantId, request) {
      try {
        return await inner.resolve(tenantId, request);
      } catch (err) {
        if (refusedWith(err, 'BINDING_UNAVAILABLE')) throw replicaUnavailable('cinst_none');
        throw err;
      }
    },
  }),
});
