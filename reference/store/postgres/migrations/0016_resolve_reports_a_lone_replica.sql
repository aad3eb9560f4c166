-- A new route reports whether its replica was the only candidate with room
-- in its priority (alone): concurrent resolves of the same tenant and
-- capability could then only wait for that replica's row lock, so the store
-- lets them take turns in its process (resolve-turns.ts) instead of holding
-- a connection each while they wait. fleetproof_take_replica,
-- fleetproof_new_route and fleetproof_resolve gain the OUT parameter; a
-- changed result type needs the functions dropped first. The functions are
-- copied from sql/functions/, where every function's current body lives;
-- postgres-functions.test.ts checks that the migrations install exactly
-- those bodies.

DROP FUNCTION fleetproof_resolve(text, text, text, text, text[], integer[], bigint, text, text, text, text, text, text, bigint, bigint[],
  bigint, boolean);
DROP FUNCTION fleetproof_new_route(text, text, text, bigint, text[], integer[], bigint, text, text, text, text, text, text, bigint,
  bigint[], bigint, boolean);
DROP FUNCTION fleetproof_take_replica(text, text[], integer[], bigint, text, text, text, text, bigint);

-- fleetproof_take_replica: the replica a new route takes ([route-eligibility],
-- [route-order], [route-contention]), with its unit already taken: the row
-- comes back with active_assignments one higher, locked by this transaction
-- until it commits. The filter (fleetproof_replica_takes_new_route) and the
-- order (priority by priority, then fleetproof_route_key, instance id,
-- replica id) are the domain's rules restated. The candidates of a priority
-- are the tenant's replicas whose `<instance id> <version id>` is one of
-- its keys: one index scan over the tenant's entries of
-- connector_replicas_by_binding_key, the array keys taken in order within
-- it, not a probe per binding.
--
-- Locks: the one replica row it takes (FOR NO KEY UPDATE, which a route's
-- foreign key check, FOR KEY SHARE, does not conflict with). It is the first
-- row lock of the transaction, so a resolve waits for a replica while
-- holding no other row. The lowest priority with an eligible replica is
-- taken first; within it, each attempt, with a snapshot of its own:
-- 1. The best candidate by this snapshot, with its count of active
--    assignments, and whether a runner-up stands behind it, without a lock
--    (a top-2 scan, no sort of every candidate). None at all: the next
--    priority.
-- 2. That row's unit taken unless another transaction holds the row (SKIP
--    LOCKED in the subquery).
-- 3. Held: the walk over every candidate in order, taking the first row no
--    one holds (FOR NO KEY UPDATE OF x SKIP LOCKED stops at the first row it
--    can lock), so concurrent resolves spread over idle replicas.
-- 4. Every candidate held: the best one's unit taken by an UPDATE that waits
--    for the row (a hot replica: resolves take their turn instead of being
--    refused).
-- Each step re-checks the filter on the row's latest version once locked,
-- so a capacity is never exceeded, and, when the best has a runner-up, the
-- row's count against step 1's: no higher in step 2, at most one higher in
-- steps 3 and 4 (the unit of the holder waited for). A held row ranks by
-- its count without its holder's unit, so the calls of a busy moment all
-- rank the held replicas first, and a call may rank long before it locks;
-- without the check the replicas ranked first would collect those calls
-- while the others stand lower ([route-order] (4)). With it, no replica
-- taken is more than two above the lowest count of the moment, and a call
-- whose row grew past it ranks afresh at its next attempt. From attempt 17
-- on the count is no longer checked, so a call that keeps losing its turn
-- still takes a replica with room rather than run out of attempts.
--
-- PostgreSQL keeps the lock on a row that a re-check rejected once locked.
-- Steps 2 and 3, and step 4, therefore each run in a subtransaction (a
-- block with an EXCEPTION clause) that is rolled back, locks and all, when
-- it takes nothing: a call never waits in step 4 while it holds a row it
-- rejected, and never keeps one into its next attempt. Holding one row
-- while waiting for another could deadlock with a call doing the reverse.
--
-- A wait lasts as long as the holder's transaction: a resolve or a
-- settlement is one statement with its commit, lease expiry and health
-- reports a few statements; the statement timeout bounds each. After 32
-- attempts that each lost their replica it answers 'contended'
-- (REPLICA_UNAVAILABLE with retry_after_ms); no eligible replica in any
-- priority is 'none'.
--
-- Parameters: the tenant; the eligible bindings' keys in priority order and
-- the end of each priority's run in them; now (ms, the store's clock); required capacity
-- class or null; required region (residency) or null; preferred region and
-- zone or null; tiebreakHash(action id).
-- Outcomes: 'taken' (replica set; alone: whether it was its priority's only
-- candidate with room at its attempt, so that a concurrent resolve of the
-- same tenant and capability could only have waited for it), 'contended' or
-- 'none'.
CREATE OR REPLACE FUNCTION fleetproof_take_replica(
  p_tenant_id text, p_keys text[], p_tier_ends integer[], p_now bigint,
  p_capacity_class text, p_residency text, p_region text, p_zone text, p_tiebreak bigint,
  OUT outcome text, OUT replica connector_replicas, OUT alone boolean)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_tier text[];
  v_start integer := 1;
  v_end integer;
  v_best text;
  v_best_count integer;
  v_candidates integer;
  v_ranked boolean;
  v_taken boolean;
  v_candidate record;
BEGIN
  FOREACH v_end IN ARRAY p_tier_ends LOOP
    v_tier := p_keys[v_start:v_end];
    v_start := v_end + 1;
    FOR attempt IN 1 .. 32 LOOP
      -- 1. The best candidate of this priority by this snapshot, its
      -- count, and whether a runner-up stands behind it.
      v_best := NULL;
      v_candidates := 0;
      FOR v_candidate IN
        SELECT r.replica_id, r.active_assignments
        FROM connector_replicas r
        WHERE r.tenant_id = p_tenant_id AND (r.instance_id || ' ' || r.version_id) = ANY (v_tier)
          AND fleetproof_replica_takes_new_route(r, p_now, p_capacity_class, p_residency)
        ORDER BY fleetproof_route_key(r, p_region, p_zone, p_tiebreak), r.instance_id, r.replica_id
        LIMIT 2
      LOOP
        v_candidates := v_candidates + 1;
        IF v_candidates = 1 THEN
          v_best := v_candidate.replica_id;
          v_best_count := v_candidate.active_assignments;
        END IF;
      END LOOP;
      EXIT WHEN v_best IS NULL;
      v_ranked := attempt <= 16 AND v_candidates = 2;

      -- 2 and 3: its unit, unless a concurrent transaction holds it or it
      -- grew; else the first candidate in order that no one holds and that
      -- is at most one above it.
      v_taken := false;
      BEGIN
        UPDATE connector_replicas r SET active_assignments = r.active_assignments + 1
        WHERE r.replica_id = (
          SELECT x.replica_id FROM connector_replicas x
          WHERE x.replica_id = v_best AND fleetproof_replica_takes_new_route(x, p_now, p_capacity_class, p_residency)
            AND (NOT v_ranked OR x.active_assignments <= v_best_count)
          FOR NO KEY UPDATE SKIP LOCKED)
        RETURNING r.* INTO replica;
        IF NOT FOUND THEN
          UPDATE connector_replicas r SET active_assignments = r.active_assignments + 1
          WHERE r.replica_id = (
            SELECT x.replica_id
            FROM connector_replicas x
            WHERE x.tenant_id = p_tenant_id AND (x.instance_id || ' ' || x.version_id) = ANY (v_tier)
              AND fleetproof_replica_takes_new_route(x, p_now, p_capacity_class, p_residency)
              AND (NOT v_ranked OR x.active_assignments <= v_best_count + 1)
            ORDER BY fleetproof_route_key(x, p_region, p_zone, p_tiebreak), x.instance_id, x.replica_id
            LIMIT 1
            FOR NO KEY UPDATE OF x SKIP LOCKED)
          RETURNING r.* INTO replica;
        END IF;
        IF NOT FOUND THEN
          RAISE EXCEPTION USING ERRCODE = 'FPNOT'; -- nothing taken: give back what a re-check rejected
        END IF;
        v_taken := true;
      EXCEPTION WHEN SQLSTATE 'FPNOT' THEN
        NULL;
      END;

      -- 4. Every candidate held: wait for the best one.
      IF NOT v_taken THEN
        BEGIN
          UPDATE connector_replicas r SET active_assignments = r.active_assignments + 1
          WHERE r.replica_id = v_best AND fleetproof_replica_takes_new_route(r, p_now, p_capacity_class, p_residency)
            AND (NOT v_ranked OR r.active_assignments <= v_best_count + 1)
          RETURNING r.* INTO replica;
          IF NOT FOUND THEN
            RAISE EXCEPTION USING ERRCODE = 'FPNOT';
          END IF;
          v_taken := true;
        EXCEPTION WHEN SQLSTATE 'FPNOT' THEN
          NULL;
        END;
      END IF;
      IF v_taken THEN
        outcome := 'taken';
        alone := v_candidates = 1;
        RETURN;
      END IF;
      replica := NULL;
      IF attempt = 32 THEN
        outcome := 'contended';
        RETURN;
      END IF;
    END LOOP;
  END LOOP;
  outcome := 'none';
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
-- Outcomes: 'created' (assignment set; alone as fleetproof_take_replica's), 'binding_unavailable',
-- 'replica_unavailable' or 'contended' (detail: the instance
-- [route-replica-unavailable] names).
CREATE OR REPLACE FUNCTION fleetproof_new_route(
  p_action_id text, p_tenant_id text, p_capability_id text, p_revision bigint, p_keys text[], p_tier_ends integer[],
  p_now bigint, p_assigned_at text, p_fence_token text,
  p_capacity_class text, p_residency text, p_region text, p_zone text, p_tiebreak bigint,
  p_default_policy bigint[], p_scope_off bigint, p_name_last boolean,
  OUT outcome text, OUT detail text, OUT assignment json, OUT alone boolean)
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
  alone := v_taken.alone;

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

