-- Admission policy writes, under the exclusive publication lock.
INSERT INTO admission_policies (policy_ref, revision, enabled, max_global_in_flight, max_tenant_in_flight,
  max_connector_type_in_flight, max_instance_in_flight, max_binding_in_flight, max_tenant_retry_in_flight,
  circuit_failure_threshold, circuit_open_ms)
SELECT * FROM unnest($1::text[], $2::bigint[], $3::boolean[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[],
  $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[])
ON CONFLICT (policy_ref) DO UPDATE SET
  revision = EXCLUDED.revision,
  enabled = EXCLUDED.enabled,
  max_global_in_flight = EXCLUDED.max_global_in_flight,
  max_tenant_in_flight = EXCLUDED.max_tenant_in_flight,
  max_connector_type_in_flight = EXCLUDED.max_connector_type_in_flight,
  max_instance_in_flight = EXCLUDED.max_instance_in_flight,
  max_binding_in_flight = EXCLUDED.max_binding_in_flight,
  max_tenant_retry_in_flight = EXCLUDED.max_tenant_retry_in_flight,
  circuit_failure_threshold = EXCLUDED.circuit_failure_threshold,
  circuit_open_ms = EXCLUDED.circuit_open_ms
