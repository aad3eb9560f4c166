-- Everything the tenant view of the catalog ([catalog-tenant-visibility])
-- needs: the tenant's enabled bindings with their chain, the bound
-- capability's canonical size and the profiles of the instance's version.
-- Runs after the shared publication lock, so the view is of one revision.
-- The primary key prefix (tenant_id) serves the lookup.
SELECT b.capability_id, b.instance_id, b.priority, b.policy_revision, b.credential_revision_ref, b.quota_policy_ref,
  b.enabled, b.scope_key,
  i.type_id AS instance_type_id, i.version_id, i.tenant_id AS instance_tenant_id, i.config_revision,
  i.secret_provider_ref, i.status AS instance_status,
  v.status AS version_status, v.supply_chain_qualified, v.type_id AS version_type_id,
  t.enabled AS type_enabled,
  EXISTS (SELECT 1 FROM version_capabilities vc WHERE vc.version_id = i.version_id AND vc.capability_id = b.capability_id)
    AS implements_capability,
  d.canonical_size,
  ARRAY(SELECT vp.profile_id FROM version_profiles vp WHERE vp.version_id = i.version_id) AS profile_ids
FROM capability_bindings b
JOIN capability_definitions d ON d.capability_id = b.capability_id
LEFT JOIN connector_instances i ON i.instance_id = b.instance_id
LEFT JOIN connector_versions v ON v.version_id = i.version_id
LEFT JOIN connector_types t ON t.type_id = v.type_id
WHERE b.tenant_id = $1 AND b.enabled
