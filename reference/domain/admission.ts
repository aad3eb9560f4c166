// Admission scopes (spec.md §11): which counters an attempt reserves, with
// which limits, and the implicit default policy for bindings without one.
import type { ScopeKind } from '../../contract/errors.ts';
import { SCOPE_OFF, type AdmissionPolicy, type AdmissionReservation, type ScopeReservation } from '../../contract/records.ts';

export const IMPLICIT_DEFAULT_POLICY: Readonly<AdmissionPolicy> = Object.freeze({
  policy_ref: 'quota:implicit-default',
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
});

export interface ScopeSubjects {
  tenantId: string;
  connectorTypeId: string;
  instanceId: string;
  /** bindingScopeKey(tenant, capability, instance), computed once per binding. */
  bindingKey: string;
}

function scope(kind: ScopeKind, key: string, limit: number): ScopeReservation[] {
  return limit === SCOPE_OFF ? [] : [{ kind, key, limit }];
}

/** The reservation pinned into a new assignment ([admission-scopes], [assignment-admission]). */
export function buildReservation(policyRef: string | null, policy: AdmissionPolicy, s: ScopeSubjects): AdmissionReservation {
  const retry = scope('tenant_retry', s.tenantId, policy.max_tenant_retry_in_flight);
  return {
    policy_ref: policyRef,
    policy_revision: policy.revision,
    base_scopes: [
      ...scope('global', 'fleet', policy.max_global_in_flight),
      ...scope('tenant', s.tenantId, policy.max_tenant_in_flight),
      ...scope('connector_type', s.connectorTypeId, policy.max_connector_type_in_flight),
      ...scope('instance', s.instanceId, policy.max_instance_in_flight),
      ...scope('binding', s.bindingKey, policy.max_binding_in_flight),
    ],
    retry_scope: retry[0] ?? null,
    circuit_failure_threshold: policy.circuit_failure_threshold,
    circuit_open_ms: policy.circuit_open_ms,
  };
}

/** The scopes one attempt reserves: the base scopes, plus the retry scope for a retry. */
export function attemptScopes(admission: AdmissionReservation, retry: boolean): ScopeReservation[] {
  return retry && admission.retry_scope ? [...admission.base_scopes, admission.retry_scope] : admission.base_scopes;
}

/** A stable map key for one counter: kind and key only ([admission-counters]). */
export function counterKey(kind: string, key: string): string {
  return `${kind}\u001f${key}`;
}
