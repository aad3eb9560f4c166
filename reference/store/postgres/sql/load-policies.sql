-- Admission policies by ref. No lock (see load-types.sql).
SELECT policy_ref, revision, enabled, max_global_in_flight, max_tenant_in_flight, max_connector_type_in_flight,
  max_instance_in_flight, max_binding_in_flight, max_tenant_retry_in_flight, circuit_failure_threshold, circuit_open_ms
FROM admission_policies
WHERE policy_ref = ANY($1::text[])
