-- fleetproof_reacquire_route: the write of a retry of a pinned route
-- ([pinned-reacquire], [pinned-precedence]), sent with the COMMIT
-- (sql/reacquire-route.sql). It reserves the pinned base and retry scopes
-- and, only when all of them fit and the store found the pinned replica
-- usable, takes one unit of the replica and marks the route reserved. A miss
-- refuses, naming the first scope at its limit before an unusable replica
-- ([pinned-precedence]); the refusal aborts the transaction and so undoes the
-- increments.
--
-- Locks: the replica row is already locked by lock-route-replica.sql in this
-- transaction, before the counters, which fleetproof_reserve_scopes takes in
-- scope order; then the route row, which this transaction's action lock
-- already protects from every other resolve and settle.
--
-- Parameters: scope kinds, keys and limits (in scope order); replica id;
-- replica usable; action id; scopes json.
CREATE OR REPLACE FUNCTION fleetproof_reacquire_route(
  p_kinds text[], p_keys text[], p_limits bigint[], p_replica_id text, p_usable boolean, p_action_id text, p_scopes json)
RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM fleetproof_reserve_scopes(p_kinds, p_keys, p_limits);
  IF NOT p_usable THEN
    PERFORM fleetproof_refuse('replica');
  END IF;

  UPDATE connector_replicas SET active_assignments = active_assignments + 1
  WHERE replica_id = p_replica_id;
  UPDATE route_assignments SET reserved = true, reservation_scopes = p_scopes
  WHERE action_id = p_action_id;
  IF NOT FOUND THEN
    PERFORM fleetproof_refuse('route not stored');
  END IF;
END
$$;
