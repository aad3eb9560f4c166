-- The replicas one lease-expiry call takes ([lease-expiry-bounded]): live
-- replicas whose lease ended (lease <= now), in lease then id order, at most
-- $2 of them. FOR UPDATE SKIP LOCKED: a replica held by a resolve, settle or
-- health report in flight is left for the next call rather than waited for,
-- so maintenance never stalls routing; the locks are held until commit.
SELECT replica_id
FROM connector_replicas
WHERE status <> 'offline' AND lease_expires_at_ms <= $1
ORDER BY lease_expires_at_ms, replica_id
LIMIT $2
FOR UPDATE SKIP LOCKED
