-- fleetproof_create_route: the last write of a resolve that creates a route
-- ([route-atomic]), sent with the COMMIT (sql/create-route.sql). It reserves
-- every scope of the attempt, takes one unit of the replica and stores the
-- assignment; the store has decided all of it with the domain rules.
--
-- Locks, in the order every transaction takes them:
-- - Admission counters ([admission-all-or-nothing], [admission-never-
--   overbooked]), by fleetproof_reserve_scopes (whose header gives how), in
--   scope order; the first scope at its limit refuses, which aborts the
--   transaction and so undoes the increments before it.
-- - The replica row is already locked by fleetproof_open_route in this
--   transaction (FOR UPDATE SKIP LOCKED), so its increment can never exceed
--   capacity and waits for nobody.
-- - The route row is inserted last; its replica foreign key is checked
--   against the row this transaction already holds.
--
-- Statements in a function have no round trip between them, so this is one
-- message from the store, without the executor setup of common table
-- expressions on every call.
--
-- Parameters: scope kinds, keys and limits (in scope order); replica id;
-- action, tenant and capability ids; fence token; scopes json; assignment
-- json; now (ms); pinned version id.
CREATE OR REPLACE FUNCTION fleetproof_create_route(
  p_kinds text[], p_keys text[], p_limits bigint[], p_replica_id text,
  p_action_id text, p_tenant_id text, p_capability_id text, p_fence_token text,
  p_scopes json, p_assignment json, p_now bigint, p_version_id text)
RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM fleetproof_reserve_scopes(p_kinds, p_keys, p_limits);

  UPDATE connector_replicas SET active_assignments = active_assignments + 1
  WHERE replica_id = p_replica_id;
  IF NOT FOUND THEN
    PERFORM fleetproof_refuse('route not stored');
  END IF;

  INSERT INTO route_assignments
    (action_id, tenant_id, capability_id, replica_id, version_id, fence_token, reserved, last_settlement, reservation_scopes,
     assignment, assigned_at_ms)
  VALUES (p_action_id, p_tenant_id, p_capability_id, p_replica_id, p_version_id, p_fence_token, true, NULL, p_scopes,
     p_assignment, p_now);
END
$$;
