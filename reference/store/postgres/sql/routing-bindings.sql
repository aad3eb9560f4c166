-- The tenant's enabled bindings of one capability, in priority order, with
-- every fact the binding chain rule ([route-binding-unavailable]) and the
-- admission policy ([route-admission-policy]) need, and the catalog revision
-- pinned into the assignment. The statement takes the shared publication
-- lock (see lock-catalog-shared.sql), so no catalog write commits until the
-- route does; everything the route is built from is read by this one
-- statement, from one snapshot, so the bindings, their chain and the revision
-- always belong to one publication. The primary key (tenant_id,
-- capability_id, instance_id) serves the lookup.
WITH publication AS MATERIALIZED (
  SELECT pg_advisory_xact_lock_shared(1179665217, 1414287175)
)
SELECT
  (SELECT revision FROM catalog_revision) AS catalog_revision,
  b.instance_id, b.priority, b.policy_revision, b.credential_revision_ref, b.quota_policy_ref, b.enabled, b.scope_key,
  i.type_id AS instance_type_id, i.version_id, i.tenant_id AS instance_tenant_id, i.config_revision,
  i.secret_provider_ref, i.status AS instance_status,
  v.status AS version_status, v.supply_chain_qualified, v.type_id AS version_type_id, v.manifest_digest,
  t.enabled AS type_enabled,
  EXISTS (SELECT 1 FROM version_capabilities vc WHERE vc.version_id = i.version_id AND vc.capability_id = b.capability_id)
    AS implements_capability,
  p.policy_ref, p.revision AS policy_revision_number, p.enabled AS policy_enabled, p.max_global_in_flight,
  p.max_tenant_in_flight, p.max_connector_type_in_flight, p.max_instance_in_flight, p.max_binding_in_flight,
  p.max_tenant_retry_in_flight, p.circuit_failure_threshold, p.circuit_open_ms
FROM publication, capability_bindings b
LEFT JOIN connector_instances i ON i.instance_id = b.instance_id
LEFT JOIN connector_versions v ON v.version_id = i.version_id
LEFT JOIN connector_types t ON t.type_id = v.type_id
LEFT JOIN admission_policies p ON p.policy_ref = b.quota_policy_ref
WHERE b.tenant_id = $1 AND b.capability_id = $2 AND b.enabled
ORDER BY b.priority, b.instance_id
