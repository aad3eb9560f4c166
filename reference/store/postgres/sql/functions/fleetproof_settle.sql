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
