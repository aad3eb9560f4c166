import { IMPLICIT_DEFAULT_POLICY } from '../../domain/admission.ts';
import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'unknown-policy-reads-default',
  clause: 'records-reads',
  does: 'reading an admission policy that does not exist answers the implicit default policy under that ref instead of NOT_FOUND',
  changes: (inner) => ({
    getAdmissionPolicy: async (ref) => (await inner.getAdmissionPolicy(ref)) ?? { ...IMPLICIT_DEFAULT_POLICY, policy_ref: ref },
  }),
});
