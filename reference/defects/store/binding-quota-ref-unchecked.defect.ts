import { storeDefect } from '../defect.ts';
import { refusedWith } from '../support/writes.ts';

export default storeDefect({
  name: 'binding-quota-ref-unchecked',
  clause: 'records-binding-references',
  does: 'a binding naming an admission policy that does not exist is stored without it and answered applied as sent',
  changes: (inner) => ({
    async putBinding(record) {
      try {
        return await inner.putBinding(record);
      } catch (err) {
        if (!refusedWith(err, 'NOT_FOUND') || record.quota_policy_ref === null || (await inner.getAdmissionPolicy(record.quota_policy_ref)))
          throw err;
        return { ...(await inner.putBinding({ ...record, quota_policy_ref: null })), record };
      }
    },
  }),
});
