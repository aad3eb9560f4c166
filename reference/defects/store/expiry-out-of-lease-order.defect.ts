import { storeDefect } from '../defect.ts';
import { takesNextLeaseFirst } from '../support/lease-order.ts';

export default storeDefect({
  name: 'expiry-out-of-lease-order',
  clause: 'lease-expiry-bounded',
  does: 'every other lease maintenance call takes a later lease before the earliest stale one',
  changes: (inner) => takesNextLeaseFirst(inner, null),
});
