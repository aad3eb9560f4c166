import { replicaUnavailable } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';
import { releasedRoute } from '../support/held-route.ts';

/** The pinned replica is looked at first; a retry refused by both it and a scope names the replica. */
export default storeDefect({
  name: 'replica-checked-before-scopes',
  clause: 'pinned-precedence',
  does: 'a retry whose pinned replica is unusable is REPLICA_UNAVAILABLE even when an admission scope is also full',
  changes: (inner) => ({
    async resolve(tenantId, request) {
      const held = await releasedRoute(inner, tenantId, request.action_id);
      const replica = held && (await inner.getReplica(held.assignment.replica_id));
      const unusable =
        replica !== null &&
        (replica.status === 'offline' || replica.active_assignments >= replica.capacity || replica.circuit.state === 'open');
      if (held && unusable) throw replicaUnavailable(held.assignment.instance_id);
      return inner.resolve(tenantId, request);
    },
  }),
});
