// Admission scopes as spec.md §11 defines them, written from the text: which
// counters an attempt reserves, their keys and limits, and the implicit
// default policy of a binding without quota_policy_ref.
import type { AdmissionPolicy, AdmissionReservation, ScopeReservation } from '../../../contract/records.ts';
import { SCOPE_OFF } from '../../../contract/records.ts';
import { sha256Hex } from '../../../contract/digest.ts';

/** [admission-implicit-default]. */
export const IMPLICIT_POLICY: Omit<AdmissionPolicy, 'policy_ref'> = {
  revision: 1,
  enabled: true,
  max_global_in_flight: SCOPE_OFF,
  max_tenant_in_flight: 1000,
  max_connector_type_in_flight: SCOPE_OFF,
  max_instance_in_flight: 500,
  max_binding_in_flight: 250,
  max_tenant_retry_in_flight: 100,
  circuit_failure_threshold: 5,
  circuit_open_ms: 30_000,
};

/** The binding scope key: the digest of tenant ␟ capability ␟ instance. */
export function bindingScopeKey(tenant: string, capability: string, instance: string): string {
  return `sha256:${sha256Hex(`${tenant}\u001f${capability}\u001f${instance}`)}`;
}

export interface ScopeSubjects {
  tenant: string;
  capability: string;
  connectorType: string;
  instance: string;
}

/** [admission-scopes], [assignment-admission]: the reservation a new route pins. */
export function pinnedReservation(
  policyRef: string | null,
  policy: Omit<AdmissionPolicy, 'policy_ref'>,
  s: ScopeSubjects,
): AdmissionReservation {
  const base: ScopeReservation[] = [];
  const add = (kind: ScopeReservation['kind'], key: string, limit: number) => {
    if (limit !== SCOPE_OFF) base.push({ kind, key, limit });
  };
  add('global', 'fleet', policy.max_global_in_flight);
  add('tenant', s.tenant, policy.max_tenant_in_flight);
  add('connector_type', s.connectorType, policy.max_connector_type_in_flight);
  add('instance', s.instance, policy.max_instance_in_flight);
  add('binding', bindingScopeKey(s.tenant, s.capability, s.instance), policy.max_binding_in_flight);
  return {
    policy_ref: policyRef,
    policy_revision: policy.revision,
    base_scopes: base,
    retry_scope:
      policy.max_tenant_retry_in_flight === SCOPE_OFF
        ? null
        : { kind: 'tenant_retry', key: s.tenant, limit: policy.max_tenant_retry_in_flight },
    circuit_failure_threshold: policy.circuit_failure_threshold,
    circuit_open_ms: policy.circuit_open_ms,
  };
}

/** The scopes one attempt takes: base scopes, plus the retry scope for a retry ([pinned-reacquire]). */
export function attemptScopes(a: AdmissionReservation, retry: boolean): ScopeReservation[] {
  return retry && a.retry_scope ? [...a.base_scopes, a.retry_scope] : [...a.base_scopes];
}
