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
-- 1. The best candidate by this snapshot, without a lock (a top-1 scan, no
--    sort of every candidate). None at all: the next priority.
-- 2. That row's unit taken unless another transaction holds the row (SKIP
--    LOCKED in the subquery); the filter is re-checked on the row's latest
--    version once locked, so its capacity is never exceeded.
-- 3. Held: the walk over every candidate in order, taking the first row no
--    one holds (FOR NO KEY UPDATE OF x SKIP LOCKED stops at the first row it
--    can lock), so concurrent resolves spread over idle replicas.
-- 4. Every candidate held: the best one's unit taken by an UPDATE that waits
--    for the row (a hot replica: resolves take their turn instead of being
--    refused). After the wait the filter is re-checked on the committed row;
--    a replica that filled meanwhile sends the call to its next attempt.
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
CREATE OR REPLACE FUNCTION fleetproof_take_replica(
  p_tenant_id text, p_keys text[], p_tier_ends integer[], p_now bigint,
  p_capacity_class text, p_residency text, p_region text, p_zone text, p_tiebreak bigint,
  OUT outcome text, OUT replica connector_replicas)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_tier text[];
  v_start integer := 1;
  v_end integer;
  v_best text;
BEGIN
  FOREACH v_end IN ARRAY p_tier_ends LOOP
    v_tier := p_keys[v_start:v_end];
    v_start := v_end + 1;
    FOR attempt IN 1 .. 32 LOOP
      -- 1. The best candidate of this priority by this snapshot.
      SELECT r.replica_id INTO v_best
      FROM connector_replicas r
      WHERE r.tenant_id = p_tenant_id AND (r.instance_id || ' ' || r.version_id) = ANY (v_tier)
        AND fleetproof_replica_takes_new_route(r, p_now, p_capacity_class, p_residency)
      ORDER BY fleetproof_route_key(r, p_region, p_zone, p_tiebreak), r.instance_id, r.replica_id
      LIMIT 1;
      EXIT WHEN NOT FOUND;

      -- 2. Its unit, unless a concurrent transaction holds it.
      UPDATE connector_replicas r SET active_assignments = r.active_assignments + 1
      WHERE r.replica_id = (
        SELECT x.replica_id FROM connector_replicas x
        WHERE x.replica_id = v_best AND fleetproof_replica_takes_new_route(x, p_now, p_capacity_class, p_residency)
        FOR NO KEY UPDATE SKIP LOCKED)
      RETURNING r.* INTO replica;

      -- 3. The first candidate in order that no one holds.
      IF NOT FOUND THEN
        UPDATE connector_replicas r SET active_assignments = r.active_assignments + 1
        WHERE r.replica_id = (
          SELECT x.replica_id
          FROM connector_replicas x
          WHERE x.tenant_id = p_tenant_id AND (x.instance_id || ' ' || x.version_id) = ANY (v_tier)
            AND fleetproof_replica_takes_new_route(x, p_now, p_capacity_class, p_residency)
          ORDER BY fleetproof_route_key(x, p_region, p_zone, p_tiebreak), x.instance_id, x.replica_id
          LIMIT 1
          FOR NO KEY UPDATE OF x SKIP LOCKED)
        RETURNING r.* INTO replica;
      END IF;

      -- 4. Every candidate held: wait for the best one.
      IF NOT FOUND THEN
        UPDATE connector_replicas r SET active_assignments = r.active_assignments + 1
        WHERE r.replica_id = v_best AND fleetproof_replica_takes_new_route(r, p_now, p_capacity_class, p_residency)
        RETURNING r.* INTO replica;
      END IF;
      IF FOUND THEN
        outcome := 'taken';
        RETURN;
      END IF;
      IF attempt = 32 THEN
        outcome := 'contended';
        RETURN;
      END IF;
    END LOOP;
  END LOOP;
  outcome := 'none';
END
$$;
