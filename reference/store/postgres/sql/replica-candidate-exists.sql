-- Whether select-replica.sql found nothing because every candidate was held
-- by a concurrent resolve (then it is worth retrying) or because no replica
-- is eligible at all (then REPLICA_UNAVAILABLE at once). The same filter as
-- select-replica.sql, without locking; parameters $1-$6 as there.
SELECT EXISTS (
  SELECT 1
  FROM unnest($1::text[], $2::text[]) AS e(instance_id, version_id)
  JOIN connector_replicas r ON r.instance_id = e.instance_id AND r.version_id = e.version_id
  WHERE r.status = 'ready'
    AND r.lease_expires_at_ms > $3
    AND r.active_assignments < r.capacity
    AND r.circuit_open_until_ms <= $3
    AND ($4::text IS NULL OR r.capacity_class = $4)
    AND ($5::text IS NULL OR r.region = $5)
) AS candidate
