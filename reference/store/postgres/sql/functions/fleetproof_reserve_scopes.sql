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
