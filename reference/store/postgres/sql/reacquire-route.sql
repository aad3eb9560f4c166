-- A retry of a pinned route ([pinned-reacquire], [pinned-precedence]): one
-- statement reserves the pinned base and retry scopes and, only when all of
-- them fit and the caller found the pinned replica usable ($5), takes one
-- unit of the replica and marks the route reserved. The replica row is
-- already locked by lock-route-replica.sql in this transaction; the counters
-- are locked as in create-route.sql, in the same order. On any miss the
-- caller rolls back, undoing the increments.
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
complete AS (
  SELECT count(*) = cardinality($1::text[]) AND $5::boolean AS ok FROM reserved
),
replica AS (
  UPDATE connector_replicas SET active_assignments = active_assignments + 1
  WHERE replica_id = $4 AND (SELECT ok FROM complete)
  RETURNING replica_id
),
route AS (
  UPDATE route_assignments SET reserved = true, last_settlement = NULL, reservation_scopes = $7::json
  WHERE action_id = $6 AND EXISTS (SELECT 1 FROM replica)
  RETURNING action_id
)
SELECT array_agg(scope_kind) AS kinds, array_agg(scope_key) AS keys, (SELECT count(*) FROM route)::integer AS routes
FROM reserved
