-- Instance writes, under the exclusive publication lock.
INSERT INTO connector_instances (instance_id, type_id, version_id, tenant_id, config_revision, secret_provider_ref, status)
SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[])
ON CONFLICT (instance_id) DO UPDATE SET
  version_id = EXCLUDED.version_id,
  config_revision = EXCLUDED.config_revision,
  secret_provider_ref = EXCLUDED.secret_provider_ref,
  status = EXCLUDED.status
