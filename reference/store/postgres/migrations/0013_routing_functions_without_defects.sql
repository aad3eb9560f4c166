-- The routing functions lose the parameters that only a deliberately broken
-- build ever set: fleetproof_reserve_scopes always checks each scope's limit
-- under the counter's row lock, a released route is always retried on its
-- pinned replica (never deleted and selected anew), and a settlement
-- releases only a reservation still held. A build broken on purpose is
-- assembled around the store instead (reference/defects/), and so nothing
-- deletes a route any more: the data role loses DELETE on route_assignments.
-- The functions are copied from sql/functions/, where every function's
-- current body lives; postgres-functions.test.ts checks that the migrations
-- install exactly those bodies.

DROP FUNCTION fleetproof_resolve(text, text, text, text, text[], integer[], bigint, text, text, text, text, text, text, bigint, bigint[],
  bigint, boolean, boolean, boolean);
DROP FUNCTION fleetproof_new_route(text, text, text, bigint, text[], integer[], bigint, text, text, text, text, text, text, bigint,
  bigint[], bigint, boolean, boolean);
DROP FUNCTION fleetproof_reacquire(text, text, text, json, bigint, boolean);
DROP FUNCTION fleetproof_reserve_scopes(text[], text[], bigint[], boolean);
DROP FUNCTION fleetproof_settle(text, text, text, text, bigint, boolean, boolean, boolean);

REVOKE DELETE ON route_assignments FROM fleetproof_data;

-- fleetproof_reserve_scopes: the one place an attempt's admission scopes are
-- reserved ([admission-all-or-nothing], [admission-never-overbooked]), for a
-- new route (fleetproof_resolve) and for a retry of a pinned route
-- (fleetproof_reacquire).
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
CREATE OR REPLACE FUNCTION fleetproof_reserve_scopes(p_kinds text[], p_keys text[], p_limits bigint[])
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

-- fleetproof_new_route: a new action's route ([route-binding-unavailable],
-- [route-replica-unavailable], [route-admission-policy], [route-atomic]),
-- decided and stored within fleetproof_resolve, which holds the action's
-- lock and the shared publication lock. The domain's rules
-- (resolve-decision.ts, admission.ts, assignment.ts) restated: the eligible
-- bindings, the replica, the binding's admission policy (the implicit
-- default when it names none; disabled is ADMISSION_REJECTED), the scopes
-- that have a limit, and the assignment. The assignment is written in the
-- order contract/records.ts declares its fields and as compact as
-- JSON.stringify writes it (its peer fields and topology are the replica's
-- assignment_peer, cut from the provisioned record), so that a settlement
-- can compare the text it is presented with the stored text.
--
-- Locks, in the order every transaction takes them (the advisory locks are
-- the caller's):
-- 1. The replica row, taken by fleetproof_take_replica (whose header gives
--    how contention is waited for); the first row lock.
-- 2. The selected binding's chain and policy: read under the publication
--    lock, no row locks.
-- 3. Admission counters, by fleetproof_reserve_scopes, in scope order; a
--    scope at its limit aborts the transaction, undoing the replica's unit.
-- 4. The route row is inserted last; its foreign key check locks the replica
--    row FOR KEY SHARE, which this transaction already holds more strongly.
--
-- Parameters: action, tenant and capability ids; the catalog revision read
-- under the publication lock; the eligible bindings' keys and priority ends
-- (fleetproof_eligible_bindings); the rest as fleetproof_resolve's.
-- Outcomes: 'created' (assignment set), 'binding_unavailable',
-- 'replica_unavailable' or 'contended' (detail: the instance
-- [route-replica-unavailable] names).
CREATE OR REPLACE FUNCTION fleetproof_new_route(
  p_action_id text, p_tenant_id text, p_capability_id text, p_revision bigint, p_keys text[], p_tier_ends integer[],
  p_now bigint, p_assigned_at text, p_fence_token text,
  p_capacity_class text, p_residency text, p_region text, p_zone text, p_tiebreak bigint,
  p_default_policy bigint[], p_scope_off bigint, p_name_last boolean,
  OUT outcome text, OUT detail text, OUT assignment json)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_taken record;
  v_replica connector_replicas;
  v_chain record;
  v_policy bigint[];
  v_kinds text[];
  v_keys text[];
  v_limits bigint[];
  v_scopes text := '[]';
BEGIN
  IF cardinality(p_keys) = 0 THEN
    outcome := 'binding_unavailable';
    RETURN;
  END IF;

  -- 1. The replica, with its unit.
  v_taken := fleetproof_take_replica(p_tenant_id, p_keys, p_tier_ends, p_now, p_capacity_class, p_residency, p_region, p_zone, p_tiebreak);
  IF v_taken.outcome <> 'taken' THEN
    outcome := CASE WHEN v_taken.outcome = 'contended' THEN 'contended' ELSE 'replica_unavailable' END;
    -- The first eligible binding, or the last of those sharing its priority.
    detail := split_part(p_keys[CASE WHEN p_name_last THEN p_tier_ends[1] ELSE 1 END], ' ', 1);
    RETURN;
  END IF;
  v_replica := v_taken.replica;

  -- 2. The binding's chain and admission policy (revision, the six scope
  -- limits in scope order, circuit threshold and open ms).
  SELECT b.policy_revision, b.credential_revision_ref, b.quota_policy_ref, b.scope_key, i.version_id, v.manifest_digest,
    v.type_id, p.enabled AS policy_enabled,
    CASE WHEN b.quota_policy_ref IS NULL THEN p_default_policy
      ELSE ARRAY[p.revision, p.max_global_in_flight, p.max_tenant_in_flight, p.max_connector_type_in_flight,
        p.max_instance_in_flight, p.max_binding_in_flight, p.max_tenant_retry_in_flight, p.circuit_failure_threshold,
        p.circuit_open_ms] END AS policy
  INTO v_chain
  FROM capability_bindings b
  JOIN connector_instances i ON i.instance_id = b.instance_id
  JOIN connector_versions v ON v.version_id = i.version_id
  LEFT JOIN admission_policies p ON p.policy_ref = b.quota_policy_ref
  WHERE b.tenant_id = p_tenant_id AND b.capability_id = p_capability_id AND b.instance_id = v_replica.instance_id;
  IF NOT coalesce(v_chain.policy_enabled, true) THEN
    PERFORM fleetproof_refuse('admission:' || v_chain.quota_policy_ref);
  END IF;
  v_policy := v_chain.policy;

  -- 3. The base scopes that have a limit, in scope order, reserved.
  IF p_scope_off <> ANY (v_policy[2:6]) THEN
    SELECT array_agg(s.kind ORDER BY s.n), array_agg(s.key ORDER BY s.n), array_agg(s.lim ORDER BY s.n),
      '[' || string_agg(format('{"kind":"%s","key":%s,"limit":%s}', s.kind, to_json(s.key), s.lim), ',' ORDER BY s.n) || ']'
    INTO v_kinds, v_keys, v_limits, v_scopes
    FROM unnest(ARRAY['global', 'tenant', 'connector_type', 'instance', 'binding'],
      ARRAY['fleet', p_tenant_id, v_chain.type_id, v_replica.instance_id, v_chain.scope_key], v_policy[2:6])
      WITH ORDINALITY AS s(kind, key, lim, n)
    WHERE s.lim <> p_scope_off;
    PERFORM fleetproof_reserve_scopes(v_kinds, v_keys, v_limits);
  END IF;

  -- 4. The assignment, stored.
  assignment := format('{"action_id":%s,"capability_id":%s,"tenant_id":%s,"instance_id":%s,"version_id":%s,'
      '"manifest_digest":%s,"replica_id":%s,%s,"catalog_revision":%s,"binding_policy_revision":%s,'
      '"credential_revision_ref":%s,"quota_policy_ref":%s,"replica_health_revision":%s,"fence_token":%s,'
      '"admission":{"policy_ref":%s,"policy_revision":%s,"base_scopes":%s,"retry_scope":%s,'
      '"circuit_failure_threshold":%s,"circuit_open_ms":%s},"assigned_at":%s}',
    to_json(p_action_id), to_json(p_capability_id), to_json(p_tenant_id), to_json(v_replica.instance_id),
    to_json(v_chain.version_id), to_json(v_chain.manifest_digest), to_json(v_replica.replica_id), v_replica.assignment_peer,
    p_revision, v_chain.policy_revision, coalesce(to_json(v_chain.credential_revision_ref)::text, 'null'),
    coalesce(to_json(v_chain.quota_policy_ref)::text, 'null'), v_replica.health_revision, to_json(p_fence_token),
    coalesce(to_json(v_chain.quota_policy_ref)::text, 'null'), v_policy[1], v_scopes,
    CASE WHEN v_policy[7] = p_scope_off THEN 'null'
      ELSE format('{"kind":"tenant_retry","key":%s,"limit":%s}', to_json(p_tenant_id), v_policy[7]) END,
    v_policy[8], v_policy[9], to_json(p_assigned_at))::json;
  INSERT INTO route_assignments
    (action_id, tenant_id, capability_id, replica_id, version_id, fence_token, reserved, last_settlement, reservation_scopes,
     assignment, assigned_at_ms)
  VALUES (p_action_id, p_tenant_id, p_capability_id, v_replica.replica_id, v_chain.version_id, p_fence_token, true, NULL,
    v_scopes::json, assignment, p_now);
  outcome := 'created';
END
$$;

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
-- of fleetproof_new_route. Refusals raised on the way (a scope at its limit,
-- an unusable pinned replica, a disabled policy) abort the call.
CREATE OR REPLACE FUNCTION fleetproof_resolve(
  p_action_id text, p_tenant_id text, p_capability_id text, p_publication text, p_keys text[], p_tier_ends integer[],
  p_now bigint, p_assigned_at text, p_fence_token text,
  p_capacity_class text, p_residency text, p_region text, p_zone text, p_tiebreak bigint,
  p_default_policy bigint[], p_scope_off bigint, p_name_last boolean,
  OUT outcome text, OUT detail text, OUT assignment json, OUT reserved boolean, OUT last_settlement text,
  OUT publication text, OUT keys text[], OUT tier_ends integer[])
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
END
$$;

-- fleetproof_settle: a whole settlement ([settle-fence], [settle-release-once],
-- [settle-idempotent], [circuit-counting], [circuit-opens]) in one call and
-- so in one round trip: sql/settle.sql runs it as a statement of its own,
-- committed when it returns. The domain's settlePath and
-- circuitAfterSettlement (domain/settle-decision.ts, domain/circuit.ts)
-- restated: no route of this tenant is 'not_found'; a presented assignment
-- whose text differs from the stored text is 'differs', with the stored
-- assignment, for the store to compare field by field (the text is the same
-- whenever the assignment comes back as JSON.stringify writes it, so the
-- store compares only other spellings, and real differences: FENCE_LOST); a
-- route holding no reservation is 'unreleased' with its last settlement;
-- otherwise the reservation is released: 'released'.
--
-- Locks, in the order every transaction takes them:
-- 1. The action's advisory lock, exclusive, as fleetproof_resolve takes it:
--    settlements and resolves of one action queue here.
-- 2. The route's replica row (FOR NO KEY UPDATE), by the statement that
--    reads the route, after the action lock; the replica before the route,
--    the order lease expiry follows too, so the two never wait on each other
--    in a cycle. The route columns come from that statement's snapshot,
--    without a row lock: the assignment never changes, a reservation not
--    held can only be taken back under the action lock, and a held one can
--    only have been released meanwhile by lease expiry (which holds the
--    replica's lock while it does), which the next step re-checks.
-- 3. The route row, when the read found it reserved: the update re-checks
--    `reserved` against the latest committed row, so a reservation lease
--    expiry released after the read is not released twice (then
--    'unreleased', with the outcome expiry recorded).
-- 4. Admission counters, one statement each, in the order the scopes were
--    reserved (scope kind order); each goes down only while above zero. A
--    counter that is not (a fence was lost) refuses ('fence'), aborting the
--    transaction.
-- 5. The replica row again (already locked): one unit fewer and its circuit.
--
-- Parameters: action and tenant ids; the presented assignment as
-- JSON.stringify writes it; the outcome; now (ms, the store's clock); the
-- choice keepOpenUntilOnCompleted; whether to compare the presented
-- assignment's text (false once the store has found the two equal field by
-- field).
CREATE OR REPLACE FUNCTION fleetproof_settle(
  p_action_id text, p_tenant_id text, p_presented text, p_outcome text, p_now bigint,
  p_keep_open_until boolean, p_compare boolean,
  OUT outcome text, OUT last_settlement text, OUT assignment json)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_locked boolean;
  v_route record;
  v_scopes json;
  v_scope json;
BEGIN
  -- 1. The action lock, taken as a plain expression; its value is void.
  v_locked := pg_advisory_xact_lock(hashtextextended(p_action_id, 0)) IS NULL;

  -- 2. The route, with its replica locked.
  SELECT a.tenant_id, a.replica_id, a.reserved, a.last_settlement, a.assignment,
    coalesce(a.assignment::text = p_presented, false) AS same
  INTO v_route
  FROM route_assignments a
  JOIN connector_replicas r ON r.replica_id = a.replica_id
  WHERE a.action_id = p_action_id
  FOR NO KEY UPDATE OF r;
  IF NOT FOUND OR v_route.tenant_id <> p_tenant_id THEN
    outcome := 'not_found';
    RETURN;
  END IF;
  IF p_compare AND NOT v_route.same THEN
    outcome := 'differs';
    assignment := v_route.assignment;
    RETURN;
  END IF;
  IF NOT v_route.reserved THEN
    outcome := 'unreleased';
    last_settlement := v_route.last_settlement;
    RETURN;
  END IF;

  -- 3. The reservation, if it is still held.
  UPDATE route_assignments a SET reserved = false, last_settlement = p_outcome
  WHERE a.action_id = p_action_id AND a.reserved
  RETURNING a.reservation_scopes INTO v_scopes;
  IF NOT FOUND THEN
    outcome := 'unreleased';
    SELECT a.last_settlement INTO last_settlement FROM route_assignments a WHERE a.action_id = p_action_id;
    RETURN;
  END IF;

  -- 4. The scopes it held.
  IF v_scopes::text <> '[]' THEN
    FOR v_scope IN SELECT e.s FROM json_array_elements(v_scopes) WITH ORDINALITY AS e(s, n) ORDER BY e.n LOOP
      UPDATE admission_counters SET active = active - 1
      WHERE scope_kind = v_scope ->> 'kind' AND scope_key = v_scope ->> 'key' AND active > 0;
      IF NOT FOUND THEN
        PERFORM fleetproof_refuse('fence');
      END IF;
    END LOOP;
  END IF;

  -- 5. The replica's unit and circuit: a completed outcome closes it (an
  -- open-until kept no later than now), an unknown one counts a failure and
  -- opens it at the reservation's threshold (never shortening it), the
  -- others leave it.
  UPDATE connector_replicas r SET active_assignments = greatest(r.active_assignments - 1, 0),
    consecutive_failures = CASE p_outcome WHEN 'completed' THEN 0 WHEN 'outcome_unknown' THEN r.consecutive_failures + 1
      ELSE r.consecutive_failures END,
    circuit_open_until_ms = CASE
      WHEN p_outcome = 'completed' THEN CASE WHEN p_keep_open_until THEN least(r.circuit_open_until_ms, p_now) ELSE 0 END
      WHEN p_outcome = 'outcome_unknown'
        AND r.consecutive_failures + 1 >= (v_route.assignment -> 'admission' ->> 'circuit_failure_threshold')::bigint
        THEN greatest(r.circuit_open_until_ms, p_now + (v_route.assignment -> 'admission' ->> 'circuit_open_ms')::bigint)
      ELSE r.circuit_open_until_ms END
  WHERE r.replica_id = v_route.replica_id;
  outcome := 'released';
  last_settlement := p_outcome;
END
$$;
