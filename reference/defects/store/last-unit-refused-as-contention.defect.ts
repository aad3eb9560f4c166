import { replicaUnavailable } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';

/**
 * Each resolve that takes the last unit of a scope or of its replica is
 * undone and answered REPLICA_UNAVAILABLE, which a burst alone cannot tell
 * from contention: every limit admits one fewer than it says.
 */
export default storeDefect({
  name: 'last-unit-refused-as-contention',
  clause: 'admission-all-or-nothing',
  does: 'the attempt that would take the last unit of a scope or of a replica is refused as contention (REPLICA_UNAVAILABLE)',
  changes: (inner) => ({
    async resolve(tenantId, request) {
      const view = await inner.resolve(tenantId, request);
      const { admission, replica_id: replicaId, instance_id: instanceId } = view.assignment;
      const scopes = [...admission.base_scopes, ...(admission.retry_scope ? [admission.retry_scope] : [])];
      const counters = await Promise.all(scopes.map((s) => inner.getAdmissionCounter(s.kind, s.key)));
      const replica = (await inner.getReplica(replicaId))!;
      if (scopes.some((s, i) => counters[i]!.active >= s.limit) || replica.active_assignments >= replica.capacity) {
        await inner.settle(tenantId, request.action_id, view.assignment, 'cancelled');
        throw replicaUnavailable(instanceId);
      }
      return view;
    },
  }),
});
