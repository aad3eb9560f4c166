-- fleetproof_replica_takes_new_route: [route-eligibility] for one replica row,
-- the domain rule replicaTakesNewRoute (domain/eligibility.ts) restated for
-- locking, written once for the four places fleetproof_take_replica applies
-- it (the best candidate, its re-check under the row lock, the walk and the
-- wait). The version condition is each caller's match of `<instance id>
-- <version id>` with the eligible bindings' keys.
--
-- Locks: none; it reads only its arguments. A single-expression SQL function
-- that is neither STRICT nor SECURITY DEFINER is inlined by the planner into
-- the query that calls it, with the row's fields as plain columns, so it
-- costs what the conditions written out cost; IMMUTABLE is true of it and
-- keeps it inlinable under any caller.
--
-- Parameters: the replica row; now (ms, the store's clock); required capacity
-- class or null; required region (residency) or null.
CREATE OR REPLACE FUNCTION fleetproof_replica_takes_new_route(
  r connector_replicas, p_now bigint, p_capacity_class text, p_residency text)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT r.status = 'ready'
    AND r.lease_expires_at_ms > p_now
    AND r.active_assignments < r.capacity
    AND r.circuit_open_until_ms <= p_now
    AND (p_capacity_class IS NULL OR r.capacity_class = p_capacity_class)
    AND (p_residency IS NULL OR r.region = p_residency)
$$;
