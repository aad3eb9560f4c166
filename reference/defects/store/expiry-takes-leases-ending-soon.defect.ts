import { storeDefect } from '../defect.ts';
import { nudge, SeenReplicas } from '../support/replicas.ts';

/** Maintenance treats leases ending within five seconds as ended, as a registry comparing against now plus a margin would. */
const MARGIN_MS = 5_000;

export default storeDefect({
  name: 'expiry-takes-leases-ending-soon',
  clause: 'lease-expiry-bounded',
  does: 'lease maintenance also takes offline, within its limit, replicas whose lease ends in the next five seconds',
  changes: (inner) => {
    const replicas = new SeenReplicas(inner);
    return {
      provisionReplica: replicas.provisionReplica,
      async expireLeases(limit) {
        const { expired } = await inner.expireLeases(limit);
        const now = Date.parse((await inner.fleetStatus()).observed_at);
        const soon = (await replicas.all())
          .filter(
            (r) => r.status !== 'offline' && Date.parse(r.lease_expires_at) > now && Date.parse(r.lease_expires_at) <= now + MARGIN_MS,
          )
          .slice(0, limit - expired);
        for (const r of soon) await nudge(inner, r, { status: 'offline', lease_expires_at: new Date(now).toISOString() });
        return { expired: expired + soon.length };
      },
    };
  },
});
