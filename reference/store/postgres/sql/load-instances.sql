-- Instances by id. No lock (see load-types.sql).
SELECT instance_id, type_id, version_id, tenant_id, config_revision, secret_provider_ref, status
FROM connector_instances
WHERE instance_id = ANY($1::text[])
