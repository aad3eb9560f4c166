-- fleetproof_open_settle: the first round trip of a settlement, as one call
-- (sql/open-settle.sql runs it, after BEGIN in the same message). The
-- settlement itself is written by settle-route.sql, with the COMMIT, once
-- the store has checked the fence and computed the circuit.
--
-- 1. Action lock: pg_advisory_xact_lock(hashtextextended(action id, 0)),
--    exclusive, the lock fleetproof_open_route takes first too: settlements
--    and resolves of one action queue here ([settle-release-once]).
-- 2. The action's route with its pinned replica row locked (FOR UPDATE OF r),
--    read by a later statement, so after the lock. The replica is the first
--    row lock taken, the order every transaction follows (replica, then
--    route, then admission counters in scope order) and lease expiry too, so
--    the two never wait on each other in a cycle. The route columns come from
--    this statement's snapshot: its assignment is immutable and its
--    reservation can only have been released meanwhile (by lease expiry,
--    which holds the replica's lock while it does), which settle-route.sql
--    re-checks against the latest row. No row: the action has no route.
CREATE OR REPLACE FUNCTION fleetproof_open_settle(p_action_id text)
RETURNS TABLE (
  tenant_id text, reserved boolean, last_settlement text, assignment json,
  replica_id text, consecutive_failures bigint, circuit_open_until_ms bigint)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(p_action_id, 0));
  RETURN QUERY
    SELECT a.tenant_id, a.reserved, a.last_settlement, a.assignment,
      r.replica_id, r.consecutive_failures, r.circuit_open_until_ms
    FROM route_assignments a
    JOIN connector_replicas r ON r.replica_id = a.replica_id
    WHERE a.action_id = p_action_id
    FOR UPDATE OF r;
END
$$;
