import { capacityExceeded } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';
import { refusedWith } from '../support/writes.ts';

export default storeDefect({
  name: 'disabled-policy-as-capacity-exceeded',
  clause: 'route-admission-policy',
  does: 'a new route under a disabled admission policy is CAPACITY_EXCEEDED instead of ADMISSION_REJECTED',
  changes: (inner) => ({
    async resolve(tenantId, request) {
      try {
        return await inner.resolve(tenantId, request);
      } catch (err) {
        if (refusedWith(err, 'ADMISSION_REJECTED')) throw capacityExceeded('tenant');
        throw err;
      }
    },
  }),
});
