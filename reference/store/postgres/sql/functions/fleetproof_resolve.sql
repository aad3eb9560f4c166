-- fleetproof_resolve: a whole resolve ([pinned-reserved], [pinned-reacquire],
-- and for a new action fleetproof_new_route), decided and written in one
-- call and so in one round trip: sql/resolve.sql runs it as a statement of
-- its own, committed when it returns. The domain's resolvePath
-- (domain/resolve-decision.ts) restated: an action routed for another tenant
-- or capability is a conflict; a reserved route is answered as stored; a
-- released one is retried on its pinned replica (fleetproof_reacquire).
--
-- Locks, before any row lock:
-- 1. The action's advisory lock, pg_advisory_xact_lock(hashtextextended(
--    action id, 0)), exclusive: every resolve and settlement of the action
--    queues here; requests for different actions never meet (a hash
--    collision only adds a wait).
-- 2. The publication lock, shared, as lock-catalog-shared.sql: no catalog
--    write commits until this transaction ends, so a new route is built from
--    one publication and a retry checks its pinned chain against one.
-- The action's route and the publication (the revision and the xmin of the
-- revision row, which every catalog write group changes) are then read by
-- one statement, whose snapshot is taken once both locks are held, so it
-- sees what the previous holders committed; the action lock keeps every
-- other writer of the route out, so it is read without a row lock. Then the
-- row locks of the path taken, replica first (each callee's header gives
-- them). Callees are called as plain expressions, each statement in them
-- with its own snapshot (VOLATILE, READ COMMITTED), which they rely on.
--
-- The caller passes the eligible bindings it keeps for the publication it
-- last saw; at another publication (or none) a new route reads them again
-- (fleetproof_eligible_bindings) and they are returned with the
-- publication, for the caller to keep.
--
-- Parameters: action, tenant and capability ids; the publication of the
-- caller's eligible bindings (or null), their keys and priority ends; now
-- (ms, the store's clock) and the same instant as an RFC 3339 timestamp; a
-- fresh fence token (used by a new route only); required capacity class,
-- required region (residency), preferred region and zone, each or null;
-- tiebreakHash(action id); the implicit default policy (revision, the six
-- scope limits in scope order, circuit threshold and open ms); the limit
-- meaning a scope is off; whether REPLICA_UNAVAILABLE names the last of the
-- lowest-priority bindings rather than the first.
--
-- Outcomes: 'route' (the stored or reacquired route), 'conflict', and those
-- of fleetproof_new_route, with its alone for a new route (the store's turns
-- for one tenant and capability, resolve-turns.ts). Refusals raised on the way (a scope at its limit,
-- an unusable pinned replica, a disabled policy) abort the call.
CREATE OR REPLACE FUNCTION fleetproof_resolve(
  p_action_id text, p_tenant_id text, p_capability_id text, p_publication text, p_keys text[], p_tier_ends integer[],
  p_now bigint, p_assigned_at text, p_fence_token text,
  p_capacity_class text, p_residency text, p_region text, p_zone text, p_tiebreak bigint,
  p_default_policy bigint[], p_scope_off bigint, p_name_last boolean,
  OUT outcome text, OUT detail text, OUT assignment json, OUT reserved boolean, OUT last_settlement text,
  OUT publication text, OUT keys text[], OUT tier_ends integer[], OUT alone boolean)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_locked boolean;
  v_found record;
  v_new record;
BEGIN
  -- The two locks, taken as plain expressions (no executor run for each); their value is void.
  v_locked := pg_advisory_xact_lock(hashtextextended(p_action_id, 0)) IS NULL;
  v_locked := pg_advisory_xact_lock_shared(1179665217, 1414287175) IS NULL;
  SELECT c.revision, c.revision || ':' || c.xmin AS publication, a.action_id IS NOT NULL AS routed, a.tenant_id,
    a.capability_id, a.replica_id, a.version_id, a.reserved, a.last_settlement, a.assignment
  INTO v_found
  FROM catalog_revision c
  LEFT JOIN route_assignments a ON a.action_id = p_action_id;
  IF v_found.routed THEN
    IF v_found.tenant_id <> p_tenant_id OR v_found.capability_id <> p_capability_id THEN
      outcome := 'conflict';
      RETURN;
    END IF;
    IF NOT v_found.reserved THEN
      PERFORM fleetproof_reacquire(p_action_id, v_found.replica_id, v_found.version_id, v_found.assignment -> 'admission', p_now);
    END IF;
    outcome := 'route';
    assignment := v_found.assignment;
    reserved := true;
    last_settlement := v_found.last_settlement;
    RETURN;
  END IF;

  IF p_publication IS DISTINCT FROM v_found.publication THEN
    SELECT e.keys, e.tier_ends INTO keys, tier_ends FROM fleetproof_eligible_bindings(p_tenant_id, p_capability_id) e;
    publication := v_found.publication;
    p_keys := keys;
    p_tier_ends := tier_ends;
  END IF;
  v_new := fleetproof_new_route(p_action_id, p_tenant_id, p_capability_id, v_found.revision, p_keys, p_tier_ends,
    p_now, p_assigned_at, p_fence_token, p_capacity_class, p_residency, p_region, p_zone, p_tiebreak,
    p_default_policy, p_scope_off, p_name_last);
  outcome := v_new.outcome;
  detail := v_new.detail;
  assignment := v_new.assignment;
  reserved := outcome = 'created';
  alone := v_new.alone;
END
$$;
