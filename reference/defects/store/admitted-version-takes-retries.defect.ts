import { RegistryError } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';
import { releasedRoute } from '../support/held-route.ts';

export default storeDefect({
  name: 'admitted-version-takes-retries',
  clause: 'pinned-replica-conditions',
  does: 'a retry whose pinned version was moved back to admitted is accepted; only a revoked version refuses it',
  changes: (inner) => ({
    async resolve(tenantId, request) {
      const held = await releasedRoute(inner, tenantId, request.action_id);
      try {
        return await inner.resolve(tenantId, request);
      } catch (err) {
        const version = held ? await inner.getVersion(held.assignment.version_id) : null;
        if (RegistryError.is(err) && err.code === 'REPLICA_UNAVAILABLE' && version?.status === 'admitted')
          return { ...held!, reserved: true };
        throw err;
      }
    },
  }),
});
