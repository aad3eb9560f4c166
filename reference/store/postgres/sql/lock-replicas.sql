-- Replicas a lifecycle write will change, locked until commit: a health report
-- is decided against the registry-owned active count ([records-replica-capacity]),
-- which resolve and settle change under the same row lock. Rows are locked in
-- id order so that two batches touching the same replicas never deadlock.
SELECT replica_id, provision, status, lease_expires_at_ms, capacity, health_revision, active_assignments,
  consecutive_failures, circuit_open_until_ms
FROM connector_replicas
WHERE replica_id = ANY($1::text[])
ORDER BY replica_id
FOR UPDATE
