import { storeDefect } from '../defect.ts';
import { releasedRoute } from '../support/held-route.ts';
import { nudge } from '../support/replicas.ts';
import { refusedWith } from '../support/writes.ts';

const HOUR_MS = 3_600_000;

/** A retry refused by its replica's expired lease renews the lease, as a registry trusting the replica's last status would route to it. */
export default storeDefect({
  name: 'expired-lease-renewed-for-retry',
  clause: 'lease-expired-not-routable',
  does: 'a retry pinned to a ready replica whose lease has expired is routed to it instead of REPLICA_UNAVAILABLE',
  changes: (inner) => ({
    async resolve(tenantId, request) {
      const held = await releasedRoute(inner, tenantId, request.action_id);
      try {
        return await inner.resolve(tenantId, request);
      } catch (err) {
        const replica = held && refusedWith(err, 'REPLICA_UNAVAILABLE') ? await inner.getReplica(held.assignment.replica_id) : null;
        if (!replica || replica.status !== 'ready' || replica.circuit.state === 'open') throw err;
        const observed = Date.parse((await inner.fleetStatus()).observed_at);
        if (Date.parse(replica.lease_expires_at) > observed) throw err;
        await nudge(inner, replica, { lease_expires_at: new Date(observed + HOUR_MS).toISOString() });
        return inner.resolve(tenantId, request);
      }
    },
  }),
});
