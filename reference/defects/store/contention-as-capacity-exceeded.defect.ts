import { capacityExceeded } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';

/** A resolve that starts while another of the same tenant and capability is in flight gives up as if a scope were full. */
export default storeDefect({
  name: 'contention-as-capacity-exceeded',
  clause: 'route-contention',
  does: 'a resolve contending with another for the same replicas is CAPACITY_EXCEEDED instead of waiting or REPLICA_UNAVAILABLE',
  // The memory store decides a resolve within one turn of the event loop, so no two are ever in flight together there.
  stores: ['postgres'],
  changes: (inner) => {
    const inFlight = new Map<string, number>();
    return {
      async resolve(tenantId, request) {
        const key = `${tenantId}\u001f${request.capability_id}`;
        const n = inFlight.get(key) ?? 0;
        if (n > 0 && (await inner.route(tenantId, request.action_id)) === null) throw capacityExceeded('binding');
        inFlight.set(key, n + 1);
        try {
          return await inner.resolve(tenantId, request);
        } finally {
          inFlight.set(key, inFlight.get(key)! - 1);
        }
      },
    };
  },
});
