import type { RegistryError } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';
import { nudge, SeenReplicas } from '../support/replicas.ts';
import { refusedWith } from '../support/writes.ts';

/** With no ready replica left, a draining one of the instance is made ready for the route and drained again after. */
export default storeDefect({
  name: 'draining-replica-takes-new-routes',
  clause: 'route-replica-unavailable',
  does: 'when no replica is eligible, a new route goes to a draining replica instead of REPLICA_UNAVAILABLE',
  changes: (inner) => {
    const replicas = new SeenReplicas(inner);
    return {
      provisionReplica: replicas.provisionReplica,
      async resolve(tenantId, request) {
        try {
          return await inner.resolve(tenantId, request);
        } catch (err) {
          if (!refusedWith(err, 'REPLICA_UNAVAILABLE') || (await inner.route(tenantId, request.action_id))) throw err;
          const instance = (err as RegistryError).details?.['instance_id'];
          const draining = (await replicas.all()).find((r) => r.instance_id === instance && r.status === 'draining');
          if (!draining) throw err;
          await nudge(inner, draining, { status: 'ready' });
          try {
            return await inner.resolve(tenantId, request);
          } finally {
            const now = (await inner.getReplica(draining.id))!;
            await nudge(inner, now, { status: 'draining' });
          }
        }
      },
    };
  },
});
