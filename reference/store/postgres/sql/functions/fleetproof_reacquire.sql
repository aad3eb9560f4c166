-- fleetproof_reacquire: a retry of a pinned route ([pinned-reacquire],
-- [pinned-replica-conditions], [pinned-precedence]), within
-- fleetproof_resolve, which holds the action's lock and found the route
-- released. The domain's rules restated (pinnedRouteUsable and
-- reacquireRefusal, domain/resolve-decision.ts): the pinned replica is ready
-- or draining, its lease runs past now, it has room and a closed circuit;
-- its instance is enabled and still at the pinned version, which is active
-- and qualified, of an enabled type. The attempt reserves the pinned base
-- scopes and the retry scope; a scope at its limit refuses before an
-- unusable replica does ('replica:<instance id>'), and either refusal aborts
-- the transaction, undoing the increments.
--
-- Locks, in the order every transaction takes them: the pinned replica row
-- first (FOR NO KEY UPDATE, read whole from its latest version once
-- locked), then the admission counters by fleetproof_reserve_scopes in scope
-- order, then the route row, which the action lock already keeps from every
-- other resolve and settlement.
--
-- Parameters: action id; the route's replica id, pinned version id and
-- admission reservation (json); now (ms).
CREATE OR REPLACE FUNCTION fleetproof_reacquire(
  p_action_id text, p_replica_id text, p_pinned_version_id text, p_admission json, p_now bigint)
RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_instance_id text;
  v_usable boolean;
  v_kinds text[];
  v_keys text[];
  v_limits bigint[];
  v_scopes json;
BEGIN
  SELECT r.instance_id,
    r.status IN ('ready', 'draining') AND r.lease_expires_at_ms > p_now AND r.active_assignments < r.capacity
      AND r.circuit_open_until_ms <= p_now
      AND coalesce(i.status = 'enabled' AND i.version_id = p_pinned_version_id AND v.status = 'active'
        AND v.supply_chain_qualified AND t.enabled, false)
  INTO v_instance_id, v_usable
  FROM connector_replicas r
  LEFT JOIN connector_instances i ON i.instance_id = r.instance_id
  LEFT JOIN connector_versions v ON v.version_id = p_pinned_version_id
  LEFT JOIN connector_types t ON t.type_id = v.type_id
  WHERE r.replica_id = p_replica_id
  FOR NO KEY UPDATE OF r;

  SELECT coalesce(array_agg(s.scope ->> 'kind' ORDER BY s.n), '{}'), coalesce(array_agg(s.scope ->> 'key' ORDER BY s.n), '{}'),
    coalesce(array_agg((s.scope ->> 'limit')::bigint ORDER BY s.n), '{}'), array_to_json(coalesce(array_agg(s.scope ORDER BY s.n), '{}'))
  INTO v_kinds, v_keys, v_limits, v_scopes
  FROM (
    SELECT e.scope, e.n FROM json_array_elements(p_admission -> 'base_scopes') WITH ORDINALITY AS e(scope, n)
    UNION ALL
    SELECT p_admission -> 'retry_scope', 6 WHERE json_typeof(p_admission -> 'retry_scope') = 'object'
  ) s;
  PERFORM fleetproof_reserve_scopes(v_kinds, v_keys, v_limits);
  IF NOT v_usable THEN
    PERFORM fleetproof_refuse('replica:' || v_instance_id);
  END IF;

  UPDATE connector_replicas SET active_assignments = active_assignments + 1 WHERE replica_id = p_replica_id;
  UPDATE route_assignments SET reserved = true, reservation_scopes = v_scopes WHERE action_id = p_action_id;
END
$$;
