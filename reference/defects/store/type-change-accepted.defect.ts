import { storeDefect } from '../defect.ts';
import { claimApplied } from '../support/writes.ts';

export default storeDefect({
  name: 'type-change-accepted',
  clause: 'records-type-immutable',
  does: 'putting an existing connector type with different fields answers applied (and keeps the stored one) instead of CONFLICT',
  changes: (inner) => ({
    putConnectorType: (record) => claimApplied(inner, () => inner.putConnectorType(record), record, ['CONFLICT']),
  }),
});
