-- Chooses and locks the replica for a new route ([route-eligibility],
-- [route-order], [route-contention]).
--
-- Locking: FOR UPDATE OF r SKIP LOCKED. The lock is applied to rows in ORDER
-- BY order and LIMIT 1 stops at the first row it could lock, so the result
-- is the best replica no concurrent resolve is holding; a held replica is
-- skipped, never waited for, and the caller retries a bounded number of
-- times when every candidate is held. When PostgreSQL locks a row that a
-- committed transaction changed after this statement's snapshot, it
-- re-evaluates the WHERE clause against the new version, so a replica that
-- filled up, drained or opened its circuit meanwhile is never returned. The
-- row lock is held until commit: the increment of active_assignments by the
-- same transaction can therefore never exceed capacity.
--
-- Order: binding priority, requested region first, requested zone first,
-- fewer active assignments, then the [route-tiebreak] key
-- tiebreakHash(replica) XOR tiebreakHash(action) (both unsigned 32-bit, so
-- the BIGINT XOR equals the memory store's), then instance and replica id in
-- byte order ("C" collation).
--
-- $1 instance ids, $2 their current version ids, $3 their binding priorities
-- (one element per eligible binding); $4 now (ms, the store's clock);
-- $5 required capacity class or null; $6 required region (residency) or
-- null; $7 preferred region or null; $8 preferred zone or null;
-- $9 tiebreakHash(action id).
SELECT r.replica_id, r.instance_id, r.version_id, r.region, r.zone, r.capacity_class, r.status,
  r.lease_expires_at_ms, r.capacity, r.health_revision, r.active_assignments, r.consecutive_failures,
  r.circuit_open_until_ms, r.provision, e.priority
FROM unnest($1::text[], $2::text[], $3::bigint[]) AS e(instance_id, version_id, priority)
JOIN connector_replicas r ON r.instance_id = e.instance_id AND r.version_id = e.version_id
WHERE r.status = 'ready'
  AND r.lease_expires_at_ms > $4
  AND r.active_assignments < r.capacity
  AND r.circuit_open_until_ms <= $4
  AND ($5::text IS NULL OR r.capacity_class = $5)
  AND ($6::text IS NULL OR r.region = $6)
ORDER BY e.priority,
  CASE WHEN $7::text IS NULL OR r.region = $7 THEN 0 ELSE 1 END,
  CASE WHEN $8::text IS NULL OR r.zone = $8 THEN 0 ELSE 1 END,
  r.active_assignments,
  r.tiebreak_hash # $9::bigint,
  r.instance_id,
  r.replica_id
LIMIT 1
FOR UPDATE OF r SKIP LOCKED
