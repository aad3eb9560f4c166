-- fleetproof_open_route: the first round trip of a resolve, as one call
-- (sql/open-route.sql runs it, after BEGIN in the same message). It takes
-- the locks a new route needs, in the order every transaction takes them,
-- and returns what the store's domain rules decide the route from; the
-- writes follow in create-route.sql, with the COMMIT.
--
-- 1. Action lock: pg_advisory_xact_lock(hashtextextended(action id, 0)),
--    exclusive ([pinned-reserved]). Every resolve and settle of the action
--    queues here; requests for different actions never meet (a hash
--    collision only adds a wait).
-- 2. The action's route, read by the next statement, whose snapshot is taken
--    after the lock is held, so it sees a route the previous holder
--    committed. An existing route is returned (outcome 'route') and nothing
--    more is locked: the caller decides between the stored view, a conflict
--    and a retry of the pinned route.
-- 3. Publication lock, shared, as lock-catalog-shared.sql: no catalog write
--    commits until this transaction ends. The publication is then read by a
--    later statement (after the lock): the revision and the xmin of the
--    revision row, which every catalog write group changes in its
--    transaction. The caller passes the publication its eligible bindings
--    were loaded at (or null); when it differs the call returns 'stale' with
--    the current one and the caller reloads the bindings (routing-bindings.sql)
--    in this transaction, still under this lock, and calls again.
-- 4. Replica row ([route-eligibility], [route-order], [route-contention]):
--    the filter (fleetproof_replica_takes_new_route, one function for its
--    four uses) and the order (fleetproof_route_rank, one for its two) are
--    the domain rule restated for locking
--    (the store re-checks the winner with it, and the parity test compares
--    placements with the memory store). First the best candidate by this
--    snapshot, without a lock (a top-1 scan, no sort of every candidate);
--    none at all is outcome 'none'. Then that one row FOR UPDATE SKIP
--    LOCKED, with the filter re-checked on its latest version. If a
--    concurrent resolve holds it, or it stopped passing, the walk over every
--    candidate in order, FOR UPDATE OF r SKIP LOCKED: locks are applied in
--    ORDER BY order and LIMIT 1 stops at the first row it could lock; a held
--    row is skipped, never waited for, and the WHERE clause is re-checked
--    against a row a committed transaction changed after the snapshot. When
--    the walk locks nothing, the call returns 'contended' if some candidate
--    is still eligible (then the caller calls again after a pause, a bounded
--    number of times) and 'none' otherwise. The locked row is read whole by
--    a later statement, whose snapshot sees its latest version (the lock
--    keeps it current); holding it until commit means the increment of
--    active_assignments by this transaction can never exceed capacity.
-- 5. The chain of the selected binding (binding, instance, version, type,
--    policy), read under the publication lock: the columns of
--    routing-bindings.sql, for one binding.
--
-- Row locks are therefore taken replica first; create-route.sql then takes
-- the admission counters in scope order and inserts the route, the order
-- every transaction uses, so no two transactions wait on each other in a
-- cycle. Advisory locks precede all row locks. The function runs with the
-- caller's privileges (the data role), and each statement in it with its own
-- snapshot (VOLATILE, READ COMMITTED), which steps 2 to 5 rely on.
--
-- Parameters: action, tenant and capability ids; the publication the caller's
-- eligible bindings belong to; their instance ids, the instances' current
-- version ids and the bindings' priorities (one element per eligible
-- binding); now (ms, the store's clock); required capacity class or null;
-- required region (residency) or null; preferred region and zone or null;
-- tiebreakHash(action id).
CREATE OR REPLACE FUNCTION fleetproof_open_route(
  p_action_id text, p_tenant_id text, p_capability_id text, p_publication text,
  p_instance_ids text[], p_version_ids text[], p_priorities bigint[],
  p_now bigint, p_capacity_class text, p_residency text, p_region text, p_zone text, p_tiebreak bigint,
  OUT outcome text, OUT publication text, OUT route json, OUT replica json, OUT chain json)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_replica_id text;
  v_instance_id text;
  v_version_id text;
BEGIN
  -- 1. The action lock, exclusive: every resolve and settle of the action queues here.
  PERFORM pg_advisory_xact_lock(hashtextextended(p_action_id, 0));

  -- 2. The action's route, by a snapshot taken after the lock: no row lock,
  --    the action lock already excludes every other writer of this route.
  SELECT row_to_json(x) INTO route FROM (
    SELECT a.tenant_id, a.capability_id, a.replica_id, a.reserved, a.last_settlement, a.reservation_scopes, a.assignment
    FROM route_assignments a
    WHERE a.action_id = p_action_id
  ) x;
  IF route IS NOT NULL THEN
    outcome := 'route';
    RETURN;
  END IF;

  -- 3. The publication lock, shared, until commit: no catalog write commits
  --    meanwhile, so the publication read next stays the current one.
  PERFORM pg_advisory_xact_lock_shared(1179665217, 1414287175);
  SELECT c.revision || ':' || c.xmin INTO publication FROM catalog_revision c;
  IF p_publication IS DISTINCT FROM publication THEN
    outcome := 'stale';
    RETURN;
  END IF;

  -- 4. The best eligible candidate by this snapshot, without a lock: a top-1
  -- scan (no sort of every candidate). None at all is REPLICA_UNAVAILABLE.
  SELECT r.replica_id, r.instance_id, r.version_id INTO v_replica_id, v_instance_id, v_version_id
  FROM unnest(p_instance_ids, p_version_ids, p_priorities) AS e(instance_id, version_id, priority)
  JOIN connector_replicas r ON r.instance_id = e.instance_id AND r.version_id = e.version_id
  WHERE fleetproof_replica_takes_new_route(r, p_now, p_capacity_class, p_residency)
  ORDER BY fleetproof_route_rank(r, e.priority, p_region, p_zone, p_tiebreak)
  LIMIT 1;
  IF NOT FOUND THEN
    outcome := 'none';
    RETURN;
  END IF;

  -- That candidate, locked unless a concurrent resolve holds it, and only if
  -- its latest version still passes the filter (re-checked on the locked row).
  SELECT r.replica_id INTO v_replica_id
  FROM connector_replicas r
  WHERE r.replica_id = v_replica_id
    AND r.instance_id = v_instance_id
    AND r.version_id = v_version_id
    AND fleetproof_replica_takes_new_route(r, p_now, p_capacity_class, p_residency)
  FOR UPDATE SKIP LOCKED;

  -- Otherwise the walk over every candidate in order, skipping held ones.
  IF NOT FOUND THEN
    SELECT r.replica_id, r.instance_id INTO v_replica_id, v_instance_id
    FROM unnest(p_instance_ids, p_version_ids, p_priorities) AS e(instance_id, version_id, priority)
    JOIN connector_replicas r ON r.instance_id = e.instance_id AND r.version_id = e.version_id
    WHERE fleetproof_replica_takes_new_route(r, p_now, p_capacity_class, p_residency)
    ORDER BY fleetproof_route_rank(r, e.priority, p_region, p_zone, p_tiebreak)
    LIMIT 1
    FOR UPDATE OF r SKIP LOCKED;
    IF NOT FOUND THEN
      -- Held by concurrent resolves, worth a retry; or not eligible any more.
      outcome := CASE WHEN EXISTS (
        SELECT 1
        FROM unnest(p_instance_ids, p_version_ids) AS e(instance_id, version_id)
        JOIN connector_replicas r ON r.instance_id = e.instance_id AND r.version_id = e.version_id
        WHERE fleetproof_replica_takes_new_route(r, p_now, p_capacity_class, p_residency)
      ) THEN 'contended' ELSE 'none' END;
      RETURN;
    END IF;
  END IF;

  -- The locked replica read whole, by a snapshot that sees its latest version.
  SELECT row_to_json(x) INTO replica FROM (
    SELECT r.replica_id, r.instance_id, r.version_id, r.region, r.zone, r.capacity_class, r.status,
      r.lease_expires_at_ms, r.capacity, r.health_revision, r.active_assignments, r.consecutive_failures,
      r.circuit_open_until_ms, r.provision
    FROM connector_replicas r
    WHERE r.replica_id = v_replica_id
  ) x;

  -- 5. The selected binding's chain, under the publication lock; no row locks.
  SELECT row_to_json(x) INTO chain FROM (
    SELECT
      (SELECT revision FROM catalog_revision) AS catalog_revision,
      b.instance_id, b.priority, b.policy_revision, b.credential_revision_ref, b.quota_policy_ref, b.enabled, b.scope_key,
      i.type_id AS instance_type_id, i.version_id, i.tenant_id AS instance_tenant_id, i.config_revision,
      i.secret_provider_ref, i.status AS instance_status,
      v.status AS version_status, v.supply_chain_qualified, v.type_id AS version_type_id, v.manifest_digest,
      t.enabled AS type_enabled,
      EXISTS (SELECT 1 FROM version_capabilities vc WHERE vc.version_id = i.version_id AND vc.capability_id = b.capability_id)
        AS implements_capability,
      p.policy_ref, p.revision AS policy_revision_number, p.enabled AS policy_enabled, p.max_global_in_flight,
      p.max_tenant_in_flight, p.max_connector_type_in_flight, p.max_instance_in_flight, p.max_binding_in_flight,
      p.max_tenant_retry_in_flight, p.circuit_failure_threshold, p.circuit_open_ms
    FROM capability_bindings b
    LEFT JOIN connector_instances i ON i.instance_id = b.instance_id
    LEFT JOIN connector_versions v ON v.version_id = i.version_id
    LEFT JOIN connector_types t ON t.type_id = v.type_id
    LEFT JOIN admission_policies p ON p.policy_ref = b.quota_policy_ref
    WHERE b.tenant_id = p_tenant_id AND b.capability_id = p_capability_id AND b.instance_id = v_instance_id AND b.enabled
  ) x;

  outcome := 'selected';
END
$$;
