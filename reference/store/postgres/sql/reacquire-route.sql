-- A retry of a pinned route ([pinned-reacquire], [pinned-precedence]): one
-- statement reserves the pinned base and retry scopes and, only when all of
-- them fit and the caller found the pinned replica usable ($5), takes one
-- unit of the replica and marks the route reserved. The replica row is
-- already locked by lock-route-replica.sql in this transaction; the counters
-- are locked as by fleetproof_create_route, in the same order. On a miss the
-- statement refuses, naming the first scope at its limit before an unusable
-- replica ([pinned-precedence]); the refusal aborts the transaction and so
-- undoes the increments.
--
-- $1 scope kinds, $2 scope keys, $3 scope limits; $4 replica id; $5 replica
-- usable; $6 action id; $7 scopes json.
WITH wanted AS (
  SELECT kind, key, lim, ord FROM unnest($1::text[], $2::text[], $3::bigint[]) WITH ORDINALITY AS s(kind, key, lim, ord)
),
reserved AS (
  INSERT INTO admission_counters AS c (scope_kind, scope_key, active)
  SELECT kind, key, 1 FROM wanted ORDER BY ord
  ON CONFLICT (scope_kind, scope_key) DO UPDATE SET active = c.active + 1
  WHERE c.active < (SELECT w.lim FROM wanted w WHERE w.kind = c.scope_kind AND w.key = c.scope_key)
  RETURNING c.scope_kind, c.scope_key
),
missing AS (
  SELECT w.kind FROM wanted w
  WHERE NOT EXISTS (SELECT 1 FROM reserved r WHERE r.scope_kind = w.kind AND r.scope_key = w.key)
  ORDER BY w.ord
  LIMIT 1
),
replica AS (
  UPDATE connector_replicas SET active_assignments = active_assignments + 1
  WHERE replica_id = $4 AND $5::boolean AND NOT EXISTS (SELECT 1 FROM missing)
  RETURNING replica_id
),
route AS (
  UPDATE route_assignments SET reserved = true, last_settlement = NULL, reservation_scopes = $7::json
  WHERE action_id = $6 AND EXISTS (SELECT 1 FROM replica)
  RETURNING action_id
)
SELECT (SELECT fleetproof_refuse('capacity:' || kind) FROM missing) AS refused_capacity,
  CASE WHEN NOT $5::boolean THEN fleetproof_refuse('replica') END AS refused_replica,
  CASE WHEN (SELECT count(*) FROM route) <> 1 THEN fleetproof_refuse('route not stored') END AS unstored
