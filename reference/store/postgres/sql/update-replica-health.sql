-- Health reports ([records-replica-health]). The rows were locked by
-- lock-replicas.sql in this transaction, so the decision made against them
-- still holds; active assignments and the circuit are not touched.
UPDATE connector_replicas r SET
  status = h.status,
  lease_expires_at_ms = h.lease_expires_at_ms,
  capacity = h.capacity,
  health_revision = h.health_revision
FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[])
  AS h(replica_id, status, lease_expires_at_ms, capacity, health_revision)
WHERE r.replica_id = h.replica_id
