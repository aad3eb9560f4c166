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
-- Locks: the one replica row it takes (FOR NO KEY UPDATE). It is the first
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
