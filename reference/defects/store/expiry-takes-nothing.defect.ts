import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'expiry-takes-nothing',
  clause: 'lease-expiry-bounded',
  does: 'lease maintenance never takes a stale replica offline and answers that it took none',
  changes: () => ({ expireLeases: async () => ({ expired: 0 }) }),
});
