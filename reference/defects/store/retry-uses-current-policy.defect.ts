import type { ScopeKind } from '../../../contract/errors.ts';
import type { AdmissionPolicy } from '../../../contract/records.ts';
import { capacityExceeded, RegistryError } from '../../../contract/registry-error.ts';
import { storeDefect } from '../defect.ts';
import { releasedRoute } from '../support/held-route.ts';

const POLICY_FIELD: Record<ScopeKind, keyof AdmissionPolicy> = {
  global: 'max_global_in_flight',
  tenant: 'max_tenant_in_flight',
  connector_type: 'max_connector_type_in_flight',
  instance: 'max_instance_in_flight',
  binding: 'max_binding_in_flight',
  tenant_retry: 'max_tenant_retry_in_flight',
};

export default storeDefect({
  name: 'retry-uses-current-policy',
  clause: 'admission-limits-pinned',
  does: 'a retry is checked against the current limits of its policy instead of those pinned in its assignment',
  changes: (inner) => ({
    async resolve(tenantId, request) {
      const held = await releasedRoute(inner, tenantId, request.action_id);
      const policyRef = held?.assignment.admission.policy_ref;
      const policy = policyRef ? await inner.getAdmissionPolicy(policyRef) : null;
      if (!held || !policy) return inner.resolve(tenantId, request);
      for (const s of held.assignment.admission.base_scopes) {
        if ((await inner.getAdmissionCounter(s.kind, s.key)).active >= (policy[POLICY_FIELD[s.kind]] as number))
          throw capacityExceeded(s.kind);
      }
      try {
        return await inner.resolve(tenantId, request);
      } catch (err) {
        // Refused only by the pinned limits, which this registry does not consult: it answers as admitted.
        if (RegistryError.is(err) && err.code === 'CAPACITY_EXCEEDED') return { ...held, reserved: true };
        throw err;
      }
    },
  }),
});
