import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'unbounded-lease-expiry',
  clause: 'lease-expiry-bounded',
  does: 'one lease maintenance call takes every stale replica, however many there are beyond its limit',
  changes: (inner) => ({
    async expireLeases(limit) {
      let expired = 0;
      for (;;) {
        const batch = (await inner.expireLeases(limit)).expired;
        expired += batch;
        if (batch < limit) return { expired };
      }
    },
  }),
});
