-- Bindings by key (tenant, capability, instance). No lock (see load-types.sql).
SELECT b.tenant_id, b.capability_id, b.instance_id, b.priority, b.policy_revision, b.credential_revision_ref,
  b.quota_policy_ref, b.enabled, b.scope_key
FROM capability_bindings b
JOIN unnest($1::text[], $2::text[], $3::text[]) AS k(tenant_id, capability_id, instance_id)
  ON b.tenant_id = k.tenant_id AND b.capability_id = k.capability_id AND b.instance_id = k.instance_id
