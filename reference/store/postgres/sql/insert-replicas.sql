-- Provisions new replicas ([records-replica-provision]). The draft took the
-- ids' advisory locks (lock-replica-ids.sql) and found no row, so every id is
-- new; ON CONFLICT DO NOTHING keeps an existing row untouched should that
-- ever not hold, and the caller compares RETURNING with what it provisioned.
-- Each replica keeps its instance's tenant, which never changes
-- ([records-instance-keys]), so that route selection finds a tenant's
-- replicas together (connector_replicas_by_binding_key).
INSERT INTO connector_replicas (replica_id, instance_id, version_id, region, zone, capacity_class, status,
  lease_expires_at_ms, capacity, health_revision, tiebreak_hash, provision, tenant_id)
SELECT u.*, i.tenant_id
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
  $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[], $12::json[])
  AS u(replica_id, instance_id, version_id, region, zone, capacity_class, status, lease_expires_at_ms, capacity, health_revision,
    tiebreak_hash, provision)
JOIN connector_instances i ON i.instance_id = u.instance_id
ON CONFLICT (replica_id) DO NOTHING
RETURNING replica_id
