-- Releases what expired reservations held ([lease-expiry-effect]): each
-- counter goes down by its number of expired reservations, never below zero.
-- Counters are locked in the order of $1-$3, which the caller sorts by scope
-- kind order then key, the order every transaction takes counters in. Then
-- the routes record `lease_expired` and the replicas go offline with no
-- active assignments, one more health revision and a lease no later than now:
-- the lease it had, or now itself when $7 is true (the variant choice
-- expiredLease).
-- Circuits and assignments are untouched ([lease-expiry-keeps-routes]).
--
-- $1 scope kinds, $2 scope keys, $3 units to release; $4 action ids;
-- $5 replica ids; $6 now (ms); $7 whether the lease becomes now.
WITH wanted AS (
  SELECT kind, key, n, ord FROM unnest($1::text[], $2::text[], $3::bigint[]) WITH ORDINALITY AS s(kind, key, n, ord)
),
locked AS MATERIALIZED (
  SELECT c.scope_kind, c.scope_key, w.n
  FROM admission_counters c JOIN wanted w ON c.scope_kind = w.kind AND c.scope_key = w.key
  ORDER BY w.ord
  FOR UPDATE OF c
),
released AS (
  UPDATE admission_counters c SET active = greatest(c.active - l.n, 0)
  FROM locked l
  WHERE c.scope_kind = l.scope_kind AND c.scope_key = l.scope_key
),
routes AS (
  UPDATE route_assignments SET reserved = false, last_settlement = 'lease_expired'
  WHERE action_id = ANY($4::text[])
)
UPDATE connector_replicas
SET status = 'offline', active_assignments = 0, health_revision = health_revision + 1,
  lease_expires_at_ms = CASE WHEN $7::boolean THEN $6 ELSE least(lease_expires_at_ms, $6) END
WHERE replica_id = ANY($5::text[])
