-- fleetproof_settle_route: the write of a settlement ([settle-release-once]),
-- sent with the COMMIT (sql/settle-route.sql). It marks the route released,
-- releases exactly the scopes it holds and one unit of the replica, and
-- writes the circuit the store computed from the locked replica row with the
-- domain rule; it returns the number of routes released (0 or 1).
--
-- Locks, in the order every transaction takes them:
-- - The replica row is already locked by fleetproof_open_settle in this
--   transaction (FOR UPDATE), before the route and the counters.
-- - The route row: the update re-checks `reserved` against the latest
--   committed row, so a reservation that lease expiry released after the
--   opening read it is not released twice; then nothing else is written.
-- - Admission counters, one statement each, in the order the scopes were
--   reserved (scope kind order), the order every transaction uses; each is
--   decremented only while above zero. A counter that is not (fewer released
--   than held: a fence was lost) refuses (fleetproof_refuse 'fence'), which
--   aborts the transaction, unless p_release_again (the deliberate
--   settle-release-twice fault) asks for a release of an unreserved route.
--
-- Parameters: action id; outcome; replica id; consecutive failures and
-- circuit open-until (ms) to store; release even when not reserved.
CREATE OR REPLACE FUNCTION fleetproof_settle_route(
  p_action_id text, p_outcome text, p_replica_id text, p_failures bigint, p_open_until bigint, p_release_again boolean)
RETURNS integer
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_scopes json;
  v_scope json;
BEGIN
  UPDATE route_assignments SET reserved = false, last_settlement = p_outcome
  WHERE action_id = p_action_id AND (reserved OR p_release_again)
  RETURNING reservation_scopes INTO v_scopes;
  IF NOT FOUND THEN
    RETURN 0;
  END IF;

  FOR v_scope IN SELECT s FROM json_array_elements(v_scopes) WITH ORDINALITY AS e(s, ord) ORDER BY ord LOOP
    UPDATE admission_counters SET active = active - 1
    WHERE scope_kind = v_scope ->> 'kind' AND scope_key = v_scope ->> 'key' AND active > 0;
    IF NOT FOUND AND NOT p_release_again THEN
      PERFORM fleetproof_refuse('fence');
    END IF;
  END LOOP;

  UPDATE connector_replicas
  SET active_assignments = greatest(active_assignments - 1, 0), consecutive_failures = p_failures,
    circuit_open_until_ms = p_open_until
  WHERE replica_id = p_replica_id;
  RETURN 1;
END
$$;
