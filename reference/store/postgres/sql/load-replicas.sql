-- Replicas by id, for readers. No lock: a reader sees the last committed state.
SELECT replica_id, provision, status, lease_expires_at_ms, capacity, health_revision, active_assignments,
  consecutive_failures, circuit_open_until_ms
FROM connector_replicas
WHERE replica_id = ANY($1::text[])
