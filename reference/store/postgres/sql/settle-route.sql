-- Settles a reserved attempt in one statement ([settle-release-once]): marks
-- the route released, releases exactly the scopes it holds and one unit of
-- the replica, and writes the circuit the caller computed from the locked
-- replica row. The replica is locked (open-settle.sql) before the
-- route and the counters, the order every transaction uses. The route update
-- re-checks `reserved` against the latest committed row, so a reservation
-- that lease expiry released meanwhile is not released twice. Counters are
-- locked in the order the scopes were reserved, then decremented only while
-- above zero; fewer released than held means a fence was lost, and the
-- statement refuses, which aborts it and its transaction.
--
-- $1 action id; $2 outcome; $3 replica id; $4 consecutive failures;
-- $5 circuit open until (ms); $6 release even when not reserved (the
-- deliberate settle-release-twice fault only).
WITH route AS (
  UPDATE route_assignments SET reserved = false, last_settlement = $2
  WHERE action_id = $1 AND (reserved OR $6::boolean)
  RETURNING reservation_scopes
),
scopes AS (
  SELECT s.scope ->> 'kind' AS kind, s.scope ->> 'key' AS key, s.ord
  FROM route, json_array_elements(route.reservation_scopes) WITH ORDINALITY AS s(scope, ord)
),
locked AS MATERIALIZED (
  SELECT c.scope_kind, c.scope_key
  FROM admission_counters c JOIN scopes s ON c.scope_kind = s.kind AND c.scope_key = s.key
  ORDER BY s.ord
  FOR UPDATE OF c
),
released AS (
  UPDATE admission_counters c SET active = c.active - 1
  FROM locked l
  WHERE c.scope_kind = l.scope_kind AND c.scope_key = l.scope_key AND c.active > 0
  RETURNING 1
),
replica AS (
  UPDATE connector_replicas
  SET active_assignments = greatest(active_assignments - 1, 0), consecutive_failures = $4, circuit_open_until_ms = $5
  WHERE replica_id = $3 AND EXISTS (SELECT 1 FROM route)
  RETURNING 1
)
SELECT (SELECT count(*) FROM route)::integer AS routes,
  CASE WHEN NOT $6::boolean AND (SELECT count(*) FROM released) < (SELECT count(*) FROM scopes)
    THEN fleetproof_refuse('fence') END AS refused
