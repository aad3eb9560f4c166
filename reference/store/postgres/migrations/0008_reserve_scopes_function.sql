-- fleetproof_reserve_scopes: the one place an attempt's admission scopes are
-- reserved ([admission-all-or-nothing], [admission-never-overbooked]), for a
-- new route (fleetproof_create_route, redefined below to call it) and for a
-- retry of a pinned route (fleetproof_reacquire_route, which replaces the
-- statement reacquire-route.sql used to run).
--
-- Locks: one counter row per scope, in the order of p_kinds (scope kind
-- order global, tenant, connector_type, instance, binding, tenant_retry), the
-- order every transaction uses, so attempts never wait on each other in a
-- cycle. A counter row is created on first use and otherwise incremented in
-- place by INSERT ... ON CONFLICT DO UPDATE, which locks the row, waits for a
-- concurrent holder to finish and re-checks `active < limit` against the
-- committed value, so two attempts never both take the last unit. The first
-- scope at its limit refuses (fleetproof_refuse 'capacity:<kind>'), which
-- aborts the transaction and so undoes the increments before it.
CREATE FUNCTION fleetproof_reserve_scopes(p_kinds text[], p_keys text[], p_limits bigint[])
RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  FOR i IN 1 .. coalesce(cardinality(p_kinds), 0) LOOP
    INSERT INTO admission_counters AS c (scope_kind, scope_key, active) VALUES (p_kinds[i], p_keys[i], 1)
    ON CONFLICT (scope_kind, scope_key) DO UPDATE SET active = c.active + 1
    WHERE c.active < p_limits[i];
    IF NOT FOUND THEN
      PERFORM fleetproof_refuse('capacity:' || p_kinds[i]);
    END IF;
  END LOOP;
END
$$;

-- fleetproof_create_route as installed by 0006 (whose header gives its
-- locking and parameters), with the scopes reserved by the function above.
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
CREATE FUNCTION fleetproof_reacquire_route(
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
