import { replicaUnavailable } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';
import { releasedRoute } from '../support/held-route.ts';

export default storeDefect({
  name: 'draining-replica-refuses-retries',
  clause: 'pinned-reacquire',
  does: 'a retry whose pinned replica is draining is REPLICA_UNAVAILABLE instead of taking a unit of it again',
  changes: (inner) => ({
    async resolve(tenantId, request) {
      const held = await releasedRoute(inner, tenantId, request.action_id);
      if (held && (await inner.getReplica(held.assignment.replica_id))?.status === 'draining')
        throw replicaUnavailable(held.assignment.instance_id);
      return inner.resolve(tenantId, request);
    },
  }),
});
