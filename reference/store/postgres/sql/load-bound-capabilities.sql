-- The enabled bindings of some instances, for the rollout check
-- ([records-instance-rollout]). No lock (see load-types.sql).
SELECT b.tenant_id, b.capability_id, b.instance_id, b.priority, b.policy_revision, b.credential_revision_ref,
  b.quota_policy_ref, b.enabled, b.scope_key
FROM capability_bindings b
WHERE b.instance_id = ANY($1::text[]) AND b.enabled
