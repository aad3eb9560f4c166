-- fleetproof_route_rank: where a candidate replica stands in [route-order]
-- (the domain's route order, domain/eligibility.ts, restated for locking),
-- written once for the two places fleetproof_open_route orders candidates:
-- the best candidate's top-1 scan and the walk that skips held rows. In
-- order: the binding's priority, the requested region then zone first, the
-- fewest active assignments, the [route-tiebreak] key (the replica's hash
-- XOR the action's), then instance and replica id in byte order.
--
-- Locks: none; it reads only its arguments. The rank is a row of the
-- composite type fleetproof_route_rank (migrations/0011), compared field by
-- field as the written-out ORDER BY list was, its ids under COLLATE "C". A
-- single-expression SQL function is inlined by the planner into the query
-- that calls it; IMMUTABLE is true of it and keeps it inlinable.
--
-- Parameters: the replica row; its binding's priority; required region and
-- zone or null; the action's tie-break half.
CREATE OR REPLACE FUNCTION fleetproof_route_rank(
  r connector_replicas, p_priority bigint, p_region text, p_zone text, p_tiebreak bigint)
RETURNS fleetproof_route_rank
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ROW(
    p_priority,
    CASE WHEN p_region IS NULL OR r.region = p_region THEN 0 ELSE 1 END,
    CASE WHEN p_zone IS NULL OR r.zone = p_zone THEN 0 ELSE 1 END,
    r.active_assignments,
    r.tiebreak_hash # p_tiebreak,
    r.instance_id,
    r.replica_id
  )::fleetproof_route_rank
$$;
