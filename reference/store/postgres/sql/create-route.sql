-- Creates a route in one statement of the resolve transaction ([route-atomic]):
-- reserves every scope of the attempt, takes one unit of the replica and
-- stores the assignment. The replica row is already locked by
-- fleetproof_open_route (open-route.sql) in this transaction.
--
-- Reservation ([admission-all-or-nothing], [admission-never-overbooked]):
-- a counter row is created on first use and otherwise incremented in place by
-- INSERT ... ON CONFLICT DO UPDATE, which locks the row, waits for a
-- concurrent holder to finish and re-checks `active < limit` against the
-- committed value, so two attempts never both take the last unit. Rows are
-- taken in the order of $1 (scope kind order global, tenant, connector_type,
-- instance, binding, tenant_retry), the order every transaction uses, so
-- attempts never wait on each other in a cycle. A scope at its limit returns
-- no row; then neither the replica nor the route is written and the
-- statement refuses with the first such scope in that order
-- ([admission-all-or-nothing]), which aborts it and its transaction and so
-- undoes the increments of the other scopes.
--
-- $1 scope kinds, $2 scope keys, $3 scope limits; $4 replica id; $5 action
-- id, $6 tenant id, $7 capability id, $8 fence token, $9 scopes json,
-- $10 assignment json, $11 now (ms), $12 pinned version id.
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
  WHERE replica_id = $4 AND NOT EXISTS (SELECT 1 FROM missing)
  RETURNING replica_id
),
route AS (
  INSERT INTO route_assignments
    (action_id, tenant_id, capability_id, replica_id, version_id, fence_token, reserved, last_settlement, reservation_scopes,
     assignment, assigned_at_ms)
  SELECT $5, $6, $7, replica_id, $12, $8, true, NULL, $9::json, $10::json, $11 FROM replica
  RETURNING action_id
)
SELECT (SELECT fleetproof_refuse('capacity:' || kind) FROM missing) AS refused,
  CASE WHEN (SELECT count(*) FROM route) <> 1 THEN fleetproof_refuse('route not stored') END AS unstored
