-- Binding writes, under the exclusive publication lock. The scope key never
-- changes once a binding exists.
INSERT INTO capability_bindings
  (tenant_id, capability_id, instance_id, priority, policy_revision, credential_revision_ref, quota_policy_ref, enabled, scope_key)
SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::text[], $7::text[], $8::boolean[], $9::text[])
ON CONFLICT (tenant_id, capability_id, instance_id) DO UPDATE SET
  priority = EXCLUDED.priority,
  policy_revision = EXCLUDED.policy_revision,
  credential_revision_ref = EXCLUDED.credential_revision_ref,
  quota_policy_ref = EXCLUDED.quota_policy_ref,
  enabled = EXCLUDED.enabled
